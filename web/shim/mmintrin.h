// Emscripten 3.1.6 ships SSE emulation headers but no <mmintrin.h>, which Eigen's SSE path
// includes. The MMX types Eigen needs are declared by xmmintrin.h, so forward to it.
#pragma once
#include <xmmintrin.h>
