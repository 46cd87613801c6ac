# The language model's corpora and the models the site ships (docs/language-model.md).
#
#   NEURALPATH_LM_SHIPPED      "name:lang:config,..." the shipped models (the CLI's `lm models`)
#   NEURALPATH_LM_MODELS_DIR   where the native build keeps them (lm-<name>.nplm)
#   NEURALPATH_CORPUS_<NAME>   each corpus file (scripts/fetch-corpus.sh, pinned, in .cache/)
#   neuralpath_lm_models(TARGET CLI OUT_DIR [DEPENDS ...])
#                              a target that puts every shipped model in OUT_DIR, trained by the
#                              native neuralpath-cli CLI only when .cache/lm-models has no model of
#                              the same fingerprint (corpus, config, seed, threads, kernels and the
#                              code that trains), so a rebuild, or another build tree, trains nothing.
set(NEURALPATH_LM_SHIPPED "en:en:small-8k,es:es:small")
set(NEURALPATH_LM_MODELS_DIR ${CMAKE_BINARY_DIR}/lm-models)
set(NEURALPATH_LM_SEED 1)
set(NEURALPATH_LM_THREADS 2)   # fixed: the same weights on any machine (the trainer is exact per thread count)
# The widest instruction set the trainer's kernels may use. Fixed too: the default is the widest the
# CPU has, and AVX-512 sums in another order than AVX2, so hosts of one machine kind (Zen 3 has
# AVX2, Zen 4 and 5 AVX-512) trained different models, and the lessons quote one of them. Every
# x86-64 CPU of this decade has AVX2 + FMA; elsewhere there is one set and the cap changes nothing.
if(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(NEURALPATH_LM_KERNELS avx2)
else()
  set(NEURALPATH_LM_KERNELS "")
endif()

# --- The corpora (fetched and checked at configure time, like the Debian sources) -------------
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scripts/corpus.lock)
foreach(corpus en es)
  string(TOUPPER ${corpus} upper)
  execute_process(COMMAND ${PROJECT_SOURCE_DIR}/scripts/fetch-corpus.sh ${corpus} ${PROJECT_SOURCE_DIR}/.cache
                  OUTPUT_VARIABLE path OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
  if(failed)
    message(WARNING "The '${corpus}' corpus could not be fetched (the reason is above): the shipped language "
                    "models will not be built. `neuralpath-cli lm train --corpus FILE` works on any text.")
    set(NEURALPATH_CORPUS_${upper} "")
  else()
    set(NEURALPATH_CORPUS_${upper} ${path})
  endif()
endforeach()

# --- The fingerprint of the code that trains ----------------------------------------------------
# Every file whose change could change the weights: the model, the tokenizer and the trainer, the
# attention kernels and AdamW they use, and `lm train` itself. CONFIGURE_DEPENDS: editing one
# re-runs this, so the fingerprint is never stale.
file(GLOB _lm_code CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/engine/core/lm/*.h ${PROJECT_SOURCE_DIR}/engine/core/lm/*.cpp
  ${PROJECT_SOURCE_DIR}/engine/core/lm/CMakeLists.txt)
list(APPEND _lm_code
  ${PROJECT_SOURCE_DIR}/engine/cli/lm_command.cpp
  ${PROJECT_SOURCE_DIR}/engine/core/attention.h ${PROJECT_SOURCE_DIR}/engine/core/attention.cpp
  ${PROJECT_SOURCE_DIR}/engine/core/backward.h ${PROJECT_SOURCE_DIR}/engine/core/backward.cpp
  ${PROJECT_SOURCE_DIR}/engine/core/simd_attention.h ${PROJECT_SOURCE_DIR}/engine/core/simd_attention.cpp
  ${PROJECT_SOURCE_DIR}/engine/core/simd_dispatch.cpp ${PROJECT_SOURCE_DIR}/engine/core/simd.h
  ${PROJECT_SOURCE_DIR}/engine/core/adamw.h ${PROJECT_SOURCE_DIR}/engine/core/adamw.cpp
  ${PROJECT_SOURCE_DIR}/engine/core/softmax.cpp ${PROJECT_SOURCE_DIR}/engine/core/tensor.h)
list(SORT _lm_code)
set(_lm_hashes "")
foreach(path IN LISTS _lm_code)
  if(EXISTS ${path})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
    file(SHA256 ${path} hash)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${path})
    string(APPEND _lm_hashes "${rel} ${hash}\n")
  endif()
endforeach()
string(SHA256 NEURALPATH_LM_CODE_FINGERPRINT "${_lm_hashes}")

# neuralpath_lm_entry(ENTRY VAR...): one entry of a list of models or data ("en:en:small", the
# lists NEURALPATH_LM_SHIPPED and NEURALPATH_LM_PAGE_DATA) read into the caller's VARs, a field
# each in order; one of them is `lang`, and `corpus` is set to that language's fetched corpus
# ("" when there is none, which the caller skips).
function(neuralpath_lm_entry entry)
  string(REPLACE ":" ";" fields "${entry}")
  set(index 0)
  foreach(var IN LISTS ARGN)
    list(GET fields ${index} value)
    set(${var} "${value}" PARENT_SCOPE)
    if(var STREQUAL "lang")
      string(TOUPPER ${value} upper)
      set(corpus "${NEURALPATH_CORPUS_${upper}}" PARENT_SCOPE)
    endif()
    math(EXPR index "${index} + 1")
  endforeach()
endfunction()

# neuralpath_lm_models(TARGET CLI OUT_DIR [DEPENDS targets...])
function(neuralpath_lm_models target cli out_dir)
  cmake_parse_arguments(arg "" "" "DEPENDS" ${ARGN})
  set(commands "")
  string(REPLACE "," ";" shipped "${NEURALPATH_LM_SHIPPED}")
  foreach(entry IN LISTS shipped)
    neuralpath_lm_entry("${entry}" name lang config)
    if(NOT corpus)
      continue()
    endif()
    file(SHA256 ${corpus} corpus_hash)
    string(SHA256 fingerprint "${corpus_hash} ${config} ${NEURALPATH_LM_SEED} ${NEURALPATH_LM_THREADS} ${lang} ${NEURALPATH_LM_KERNELS} ${NEURALPATH_LM_CODE_FINGERPRINT}")
    string(SUBSTRING ${fingerprint} 0 16 fingerprint)
    list(APPEND commands COMMAND ${CMAKE_COMMAND} -DCLI=${cli} -DCORPUS=${corpus} -DCONFIG=${config}
         -DSEED=${NEURALPATH_LM_SEED} -DTHREADS=${NEURALPATH_LM_THREADS} -DLANG=${lang} -DKERNELS=${NEURALPATH_LM_KERNELS}
         -DCACHED=${PROJECT_SOURCE_DIR}/.cache/lm-models/${name}-${fingerprint}.nplm
         -DOUT=${out_dir}/lm-${name}.nplm -P ${PROJECT_SOURCE_DIR}/cmake/train_lm_model.cmake)
  endforeach()
  if(NOT commands)
    add_custom_target(${target})
    return()
  endif()
  add_custom_target(${target} ALL ${commands}
    COMMENT "The shipped language models (trained only when .cache/lm-models lacks this fingerprint)"
    USES_TERMINAL VERBATIM)
  if(arg_DEPENDS)
    add_dependencies(${target} ${arg_DEPENDS})
  endif()
endfunction()
