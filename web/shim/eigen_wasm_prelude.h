// Force-included before every translation unit that uses Eigen in the WebAssembly build.
//
// Emscripten's clang claims to be GCC 4.2. Eigen 3.4 then takes an inline-asm workaround for a
// GCC < 6.3 bug in pmin/pmax ("minps" x86 assembly, which cannot compile to wasm). Claiming a
// newer GCC with -fgnuc-version breaks elsewhere (Eigen's GEBP spilling workaround checks
// __GNUC__ itself), so we only correct Eigen's own notion of the compiler: include its macro
// header once (it has an include guard) and redefine EIGEN_COMP_GNUC to 6.3.
#pragma once
#ifdef __cplusplus
#include <Eigen/src/Core/util/Macros.h>
#undef EIGEN_COMP_GNUC
#define EIGEN_COMP_GNUC 63
#endif
