# cmake -DCLI=neuralpath-cli -DOUT=dir -DLESSONS="a.md|es/a.md" -P ship_trained_weights.cmake
# The lessons as the site serves them (issue #10): a lesson whose task trains the lesson's weights
# (`lesson-weights: trained`) gets those weights trained here, at build time, by the native
# `neuralpath-cli train --ship` (same seed, same weights), appended as a ```trained-weights
# block; the page then loads them instead of training when the lesson opens. The other lessons
# are copied as they are. Written to OUT/<name>.md, and a translation lessons/<lang>/<name>.md to
# OUT/<lang>/<name>.md, which assemble_site.cmake puts in the site.
string(REPLACE "|" ";" LESSONS "${LESSONS}")
foreach(path IN LISTS LESSONS)
  get_filename_component(name ${path} NAME)
  get_filename_component(folder ${path} DIRECTORY)
  get_filename_component(folder ${folder} NAME)
  set(out ${OUT})
  if(NOT folder STREQUAL "lessons")
    set(out ${OUT}/${folder})  # a translation: lessons/<lang>/
  endif()
  file(MAKE_DIRECTORY ${out})
  file(READ ${path} text)
  file(STRINGS ${path} trains REGEX "^lesson-weights:[ \t]*trained[ \t]*$")
  if(trains)
    execute_process(COMMAND ${CLI} train --lesson ${path} --ship ${out}/${name}.weights
                    RESULT_VARIABLE failed OUTPUT_QUIET ERROR_VARIABLE why)
    if(failed)
      message(FATAL_ERROR "training the weights of ${path} failed: ${why}")
    endif()
    file(READ ${out}/${name}.weights block)
    file(REMOVE ${out}/${name}.weights)
    string(APPEND text "\n${block}")
  endif()
  file(WRITE ${out}/${name}.tmp "${text}")
  file(RENAME ${out}/${name}.tmp ${out}/${name})  # whole or not at all
endforeach()
