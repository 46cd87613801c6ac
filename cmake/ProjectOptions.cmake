# Project-wide options live on interface targets, not global flags, so each target opts in.
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

option(NEURALPATH_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(NEURALPATH_FUZZ "Build the libFuzzer targets in tests/fuzz (clang; implies ASan + UBSan)" OFF)
option(NEURALPATH_NATIVE_ARCH "Tune native builds for this CPU (-march=native)" OFF)

# neuralpath_warnings: what our own code compiles with (third-party code does not link this).
add_library(neuralpath_warnings INTERFACE)
target_compile_options(neuralpath_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
    -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough>)

# neuralpath_options: optimisation and sanitizer flags shared by libraries, apps and tests.
add_library(neuralpath_options INTERFACE)
if(NEURALPATH_SANITIZE AND NOT EMSCRIPTEN)
  target_compile_options(neuralpath_options INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  # Executables not position-independent: the loader then has no relocations to apply at each
  # start. The instrumented CLI is 216 MB and took 0.5 s to start (0.23 s without), and the CLI
  # tests start it hundreds of times.
  target_link_options(neuralpath_options INTERFACE -fsanitize=address,undefined -no-pie)
endif()
if(NEURALPATH_FUZZ AND NOT EMSCRIPTEN)
  # Coverage instrumentation everywhere; only the fuzz executables link libFuzzer's main().
  target_compile_options(neuralpath_options INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(neuralpath_options INTERFACE -fsanitize=address,undefined)
endif()
# No code of ours reads errno after a maths function, and with errno set by sqrt GCC keeps a
# branch around every sqrtss, so no loop with a square root vectorises (AdamW's update took a
# sixth of a language-model step). The results are the same; only errno is no longer written.
# (Clang's WebAssembly target already works this way.)
target_compile_options(neuralpath_options INTERFACE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-math-errno>)
if(NEURALPATH_NATIVE_ARCH AND NOT EMSCRIPTEN)
  target_compile_options(neuralpath_options INTERFACE -march=native)
endif()
if(EMSCRIPTEN)
  # Eigen vectorises in wasm only through Emscripten's SSE emulation (with -msimd128 alone it
  # stays scalar); the shim folder supplies <mmintrin.h>, which Emscripten 3.1.6 lacks.
  target_compile_options(neuralpath_options INTERFACE
    -msimd128 -msse -msse2 -msse3 -mssse3 -msse4.1)
  target_include_directories(neuralpath_options SYSTEM INTERFACE ${PROJECT_SOURCE_DIR}/web/shim)
  target_compile_definitions(neuralpath_options INTERFACE
    EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS=16)
endif()
