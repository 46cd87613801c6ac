# cmake -DCLI=neuralpath-cli -DCORPUS=file -DCONFIG=name -DSEED=n -DTHREADS=n -DLANG=code [-DKERNELS=avx2]
#       -DCACHED=.cache/lm-models/<name>-<fingerprint>.nplm -DOUT=dir/lm-<name>.nplm -P train_lm_model.cmake
# One shipped language model (cmake/LanguageModels.cmake): trained into CACHED by
# `neuralpath-cli lm train` unless CACHED already exists (same fingerprint: same corpus, config,
# seed, threads, kernels and code, so the same weights bit for bit), then copied to OUT. The
# training log (one JSON line per logged step) is kept beside it as CACHED.log.
get_filename_component(cache_dir ${CACHED} DIRECTORY)
file(MAKE_DIRECTORY ${cache_dir})
if(NOT EXISTS ${CACHED})
  get_filename_component(name ${OUT} NAME)
  set(kernels "")
  if(KERNELS)
    set(kernels --kernels ${KERNELS})
  endif()
  message(STATUS "Training ${name} (config ${CONFIG}, seed ${SEED}, ${THREADS} threads, kernels ${KERNELS}) on ${CORPUS}")
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${CLI} lm train --corpus ${CORPUS} --config ${CONFIG} --seed ${SEED}
                          --threads ${THREADS} --lang ${LANG} ${kernels} --out ${CACHED}.part
                  OUTPUT_FILE ${CACHED}.log ERROR_VARIABLE why RESULT_VARIABLE failed)
  if(failed)
    file(REMOVE ${CACHED}.part)
    message(FATAL_ERROR "training ${name} failed: ${why}")
  endif()
  # A CPU without the asked set trains with the widest it has below it: other weights than the
  # ones the lessons quote (the lesson-claims tests will name each sentence that no longer holds).
  if(KERNELS)
    file(STRINGS ${CACHED}.log first_line LIMIT_COUNT 1)
    string(JSON used GET "${first_line}" kernels products)
    if(NOT used STREQUAL KERNELS)
      message(WARNING "${name} was trained with ${used} kernels: this CPU lacks ${KERNELS}, so its weights differ "
                      "from the ones the lessons quote")
    endif()
  endif()
  file(RENAME ${CACHED}.part ${CACHED})  # whole or not at all
  string(TIMESTAMP end "%s")
  math(EXPR took "${end} - ${start}")
  message(STATUS "Trained ${name} in ${took} s")
endif()
get_filename_component(out_dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${out_dir})
file(COPY_FILE ${CACHED} ${OUT} ONLY_IF_DIFFERENT)
