# The language model's corpora and the models the site ships (docs/language-model.md).
#
#   NEURALPATH_LM_SHIPPED      "name:lang:config,..." the shipped models (the CLI's `lm models`)
#   NEURALPATH_LM_MODELS_DIR   where this build keeps them (lm-<name>.nplm)
set(NEURALPATH_LM_SHIPPED "en:en:small,es:es:small")
set(NEURALPATH_LM_MODELS_DIR ${CMAKE_BINARY_DIR}/lm-models)
