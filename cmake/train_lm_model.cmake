# cmake -DCLI=neuralpath-cli -DCORPUS=file -DCONFIG=name -DSEED=n -DTHREADS=n -DLANG=code
#       -DCACHED=.cache/lm-models/<name>-<fingerprint>.nplm -DOUT=dir/lm-<name>.nplm -P train_lm_model.cmake
# One shipped language model (cmake/LanguageModels.cmake): trained into CACHED by
# `neuralpath-cli lm train` unless CACHED already exists (same fingerprint: same corpus, config,
# seed, threads and code, so the same weights bit for bit), then copied to OUT. The training
# log (one JSON line per logged step) is kept beside it as CACHED.log.
get_filename_component(cache_dir ${CACHED} DIRECTORY)
file(MAKE_DIRECTORY ${cache_dir})
if(NOT EXISTS ${CACHED})
  get_filename_component(name ${OUT} NAME)
  message(STATUS "Training ${name} (config ${CONFIG}, seed ${SEED}, ${THREADS} threads) on ${CORPUS}")
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${CLI} lm train --corpus ${CORPUS} --config ${CONFIG} --seed ${SEED}
                          --threads ${THREADS} --lang ${LANG} --out ${CACHED}.part
                  OUTPUT_FILE ${CACHED}.log ERROR_VARIABLE why RESULT_VARIABLE failed)
  if(failed)
    file(REMOVE ${CACHED}.part)
    message(FATAL_ERROR "training ${name} failed: ${why}")
  endif()
  file(RENAME ${CACHED}.part ${CACHED})  # whole or not at all
  string(TIMESTAMP end "%s")
  math(EXPR took "${end} - ${start}")
  message(STATUS "Trained ${name} in ${took} s")
endif()
get_filename_component(out_dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${out_dir})
file(COPY_FILE ${CACHED} ${OUT} ONLY_IF_DIFFERENT)
