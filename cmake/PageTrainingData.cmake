# The tokens a lesson page's own language model trains on (docs/lm-worker.md, "The data").
#
#   NEURALPATH_LM_PAGE_DATA   "lang:config:max_train_tokens:max_validation_tokens:repeat,..." one
#                             file per corpus (cmake/LanguageModels.cmake fetches the corpora,
#                             pinned); repeat: the share of training windows that repeat a
#                             stretch of their own text, or "-" for the config's (page_data.h)
#   neuralpath_lm_page_data(TARGET CLI OUT_DIR [DEPENDS ...])
#                             a target that writes OUT_DIR/train-<lang>.nptok with the native
#                             `neuralpath-cli lm pack`, whenever the corpus or the CLI changed
#
# Every training token is kept (0: no cap), so the page trains on exactly the stream
# `neuralpath-cli lm train --config page` does, and with the same seed on one thread takes the
# same steps (English: 1.43 M tokens, 0.79 MB with brotli; Spanish 0.57 M, 0.27 MB). Trying a cap
# of 1.0 M English tokens (0.54 MB) moved seed 1's induction head from step 1,450 to 1,800, and
# 0.5 M to 1,575: batch order, not data, decides such shifts, so the page keeps the CLI's data.
# Validation is capped at 40,000 tokens of whole documents spread over the corpus: far more than
# the 8,192 positions a page run measures (page_run.h), at a sixth of the bytes.
#
# The Spanish text packs a repeat fraction of 0.75 (the config's is 0.5): with Spanish sayings at
# 0.5, seed 1 grew no induction head in 3,000 steps and seeds 2-4 grew one late or not at all;
# at 0.75, seeds 1-4 grew both heads by step 1,025-1,300 and the validation loss still ends below
# the bigram line (2.87-2.94 against 3.01). English at 0.75 grows its heads as early but its
# validation loss never gets under the bigram line (3.60 against 3.32), so English keeps 0.5
# (heads at step 1,450 for seed 1). Each lesson says its own fraction.
set(NEURALPATH_LM_PAGE_DATA "en:page:0:40000:-,es:page:0:40000:0.75")

# What each corpus is, for the lesson's "what the model reads" (the .nptok header's `source`).
set(NEURALPATH_LM_PAGE_SOURCE_EN "Debian package fortunes 1:1.99.1-7.3 (fortune-mod's quotations and jokes, BSD licence)")
set(NEURALPATH_LM_PAGE_SOURCE_ES "Debian package fortunes-es 1.36 (Spanish quotations and sayings, GPL-2+)")

function(neuralpath_lm_page_data target cli out_dir)
  cmake_parse_arguments(arg "" "" "DEPENDS" ${ARGN})
  set(outputs "")
  string(REPLACE "," ";" entries "${NEURALPATH_LM_PAGE_DATA}")
  foreach(entry IN LISTS entries)
    neuralpath_lm_entry("${entry}" lang config max_train max_validation repeat)  # (LanguageModels.cmake)
    if(NOT corpus)
      continue()   # LanguageModels.cmake warned already
    endif()
    set(repeat_flag "")
    if(NOT repeat STREQUAL "-")
      set(repeat_flag --repeat-fraction ${repeat})
    endif()
    string(TOUPPER ${lang} upper)
    set(out ${out_dir}/train-${lang}.nptok)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND ${cli} lm pack --corpus ${corpus} --config ${config} --max-train-tokens ${max_train}
              --max-validation-tokens ${max_validation} --lang ${lang}
              --source "${NEURALPATH_LM_PAGE_SOURCE_${upper}}" ${repeat_flag} --out ${out}
      DEPENDS ${corpus} ${cli} ${arg_DEPENDS}
      COMMENT "Packing the page's training tokens (${lang})"
      VERBATIM)
    list(APPEND outputs ${out})
  endforeach()
  add_custom_target(${target} DEPENDS ${outputs})
endfunction()
