# Third-party code: Debian packages for headers and tools, Debian *source* packages for what
# must also compile to WebAssembly (Dear ImGui, md4c). Fetched sources are cached in .cache/
# (ignored by git); pass -DIMGUI_DIR=... or -DMD4C_DIR=... to use a copy of your own.

# --- Eigen (header-only, Debian libeigen3-dev) -------------------------------------------------
# find_path with NO_CMAKE_FIND_ROOT_PATH so the same lookup works under Emscripten's sysroot.
find_path(EIGEN3_INCLUDE_DIR Eigen/Core PATHS /usr/include/eigen3 NO_CMAKE_FIND_ROOT_PATH
          REQUIRED)
add_library(neuralpath_eigen INTERFACE)
target_include_directories(neuralpath_eigen SYSTEM INTERFACE ${EIGEN3_INCLUDE_DIR})
if(EMSCRIPTEN)
  # Keeps Eigen off an x86 inline-asm path under Emscripten; see the header for why.
  target_compile_options(neuralpath_eigen INTERFACE
    "SHELL:-include ${PROJECT_SOURCE_DIR}/web/shim/eigen_wasm_prelude.h")
endif()

# --- nlohmann-json (header-only, Debian nlohmann-json3-dev): CLI I/O and the JS bridge ------
# It lives directly in /usr/include; putting that folder on the include path would pull the
# host's libc headers into the WebAssembly build, so we point at a link to its folder alone.
find_path(NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH
          REQUIRED)
set(_json_include ${CMAKE_BINARY_DIR}/deps/include)
file(MAKE_DIRECTORY ${_json_include})
file(CREATE_LINK ${NLOHMANN_JSON_INCLUDE_DIR}/nlohmann ${_json_include}/nlohmann SYMBOLIC)
add_library(neuralpath_json INTERFACE)
target_include_directories(neuralpath_json SYSTEM INTERFACE ${_json_include})

# --- Sources fetched from Debian source packages ----------------------------------------------
# Pinned in scripts/debian-sources.lock (version + SHA-256 of each file). The script fetches the
# pinned files from an archive mirror the machine's apt uses, and verifies the cached copy on
# every configure and, through a target that runs before their compilation, on every build.
set(_debian_pins ${PROJECT_SOURCE_DIR}/scripts/debian-sources.lock)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_debian_pins})
function(neuralpath_debian_source package out_var)
  # A directory passed with -D<out_var>=... is the user's own copy: used as it is, unchecked.
  # (Values the fetch wrote, including the unversioned .cache/<package>/src of older trees, are
  # ours and fetched again.)
  set(dir "${${out_var}}")
  if(dir AND NOT dir STREQUAL "${_NEURALPATH_FETCHED_${out_var}}" AND NOT dir MATCHES "/\\.cache/${package}/src/")
    message(STATUS "${package}: your copy in ${dir} (not checked against the pin)")
    set(${out_var}_VERIFY "" PARENT_SCOPE)
    return()
  endif()
  set(fetch ${PROJECT_SOURCE_DIR}/scripts/fetch-debian-source.sh ${package} ${PROJECT_SOURCE_DIR}/.cache)
  execute_process(COMMAND ${fetch} OUTPUT_VARIABLE dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "Could not fetch the pinned Debian source package '${package}' (the reason is "
                        "above). Set -D${out_var}=/path/to/${package} to use a local copy.")
  endif()
  set(${out_var} ${dir} CACHE PATH "${package} source directory" FORCE)
  set(_NEURALPATH_FETCHED_${out_var} ${dir} CACHE INTERNAL "what the pinned fetch gave")
  add_custom_target(verify_${package} COMMAND ${fetch} > /dev/null
                    COMMENT "Verifying ${package}'s sources against the pin" VERBATIM)
  set(${out_var}_VERIFY verify_${package} PARENT_SCOPE)
endfunction()

# --- md4c (CommonMark parser; one C file) ------------------------------------------------------
neuralpath_debian_source(md4c MD4C_DIR)
add_library(md4c STATIC ${MD4C_DIR}/src/md4c.c)
target_include_directories(md4c SYSTEM PUBLIC ${MD4C_DIR}/src)
set_target_properties(md4c PROPERTIES C_STANDARD 99 POSITION_INDEPENDENT_CODE ON)
if(MD4C_DIR_VERIFY)
  add_dependencies(md4c ${MD4C_DIR_VERIFY})
endif()

# --- Dear ImGui --------------------------------------------------------------------------------
neuralpath_debian_source(imgui IMGUI_DIR)
add_library(imgui STATIC
  ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp
  ${IMGUI_DIR}/imgui_tables.cpp ${IMGUI_DIR}/imgui_widgets.cpp)
target_include_directories(imgui SYSTEM PUBLIC ${IMGUI_DIR})
# Our views use ImGui's math operators on ImVec2 and never the obsolete names.
target_compile_definitions(imgui PUBLIC IMGUI_DEFINE_MATH_OPERATORS IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
target_link_libraries(imgui PRIVATE neuralpath_options)
target_compile_options(imgui PRIVATE -w)  # third-party code: its warnings are not ours to fix
if(IMGUI_DIR_VERIFY)
  add_dependencies(imgui ${IMGUI_DIR_VERIFY})
endif()

if(EMSCRIPTEN)
  # The platform and renderer backends, only for the web app (the one window we open).
  add_library(imgui_backends STATIC
    ${IMGUI_DIR}/backends/imgui_impl_glfw.cpp ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
  target_link_libraries(imgui_backends PUBLIC imgui)
  target_include_directories(imgui_backends SYSTEM PUBLIC ${IMGUI_DIR}/backends)
  target_link_options(imgui_backends PUBLIC -sUSE_GLFW=3)
  # WebGL2 is OpenGL ES 3.0: the "#version 300 es" shaders and vertex array objects.
  target_compile_definitions(imgui_backends PUBLIC IMGUI_IMPL_OPENGL_ES3)
else()
  # --- doctest (Debian doctest-dev), native tests only ------------------------------------------
  find_package(doctest REQUIRED)
endif()
