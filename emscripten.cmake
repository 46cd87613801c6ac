# Toolchain file for the web bundle: Debian's Emscripten plus the fixes it needs here.
#   cmake --preset web      (or: cmake -B build/web -DCMAKE_TOOLCHAIN_FILE=emscripten.cmake)

# Debian installs Emscripten under /usr/share/emscripten; EMSCRIPTEN_ROOT overrides that.
if(NOT DEFINED EMSCRIPTEN_ROOT)
  set(EMSCRIPTEN_ROOT "$ENV{EMSCRIPTEN_ROOT}")
  if(NOT EMSCRIPTEN_ROOT)
    set(EMSCRIPTEN_ROOT /usr/share/emscripten)
  endif()
endif()
include(${EMSCRIPTEN_ROOT}/cmake/Modules/Platform/Emscripten.cmake)

# emcc's JS optimizer imports `acorn`, which Debian installs for Node in /usr/share/nodejs.
# Setting NODE_PATH only at configure time would not reach the build steps, so every compile
# and link goes through `cmake -E env`.
set(_neuralpath_emcc_env ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)
# A compiler launcher the caller asked for (CMAKE_CXX_COMPILER_LAUNCHER=ccache in the
# environment, as for the native presets) still runs: setting the launcher here would drop it.
set(CMAKE_C_COMPILER_LAUNCHER ${_neuralpath_emcc_env} $ENV{CMAKE_C_COMPILER_LAUNCHER})
set(CMAKE_CXX_COMPILER_LAUNCHER ${_neuralpath_emcc_env} $ENV{CMAKE_CXX_COMPILER_LAUNCHER})
set(CMAKE_C_LINKER_LAUNCHER ${_neuralpath_emcc_env})
set(CMAKE_CXX_LINKER_LAUNCHER ${_neuralpath_emcc_env})

# The engine reports bad input (a sentence too long, a broken lesson) with C++ exceptions.
# Emscripten builds without exception catching by default, so a throw would abort the page.
# -fwasm-exceptions uses WebAssembly's own try/catch (Chrome 95, Firefox 100, Safari 15.2, Node
# 17 and later) and the prebuilt libc++-except / libc++abi-except that Debian's Emscripten 3.1.6
# ships; -fexceptions would emulate them through JavaScript, wrapping every call that may throw
# in a JS trampoline: a larger and slower wasm. Both compile and link need the flag.
set(CMAKE_CXX_FLAGS_INIT "-fwasm-exceptions")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fwasm-exceptions")
