# cmake -DSITE=dir -DSHELL_FILES="a|b" -DLESSONS="x.md|y.md" -P assemble_site.cmake
# Puts the static site together beside lesson.js/.wasm/.data (already linked into SITE):
#   - the shell files (HTML, CSS, JS glue), as they are;
#   - lessons/*.md and lessons/index.json, the list the home page shows, read from each
#     (translations likewise: lessons/<lang>/*.md and lessons/<lang>/index.json),
#     lesson's front matter (`key: value` lines between the opening and closing `---`);
#   - asset-sizes.json, the byte sizes the loading bar counts against (a compressed response's
#     Content-Length would understate them).
string(REPLACE "|" ";" SHELL_FILES "${SHELL_FILES}")
string(REPLACE "|" ";" LESSONS "${LESSONS}")
string(REPLACE "|" ";" STRINGS "${STRINGS}")
file(MAKE_DIRECTORY ${SITE}/lessons)
# The word catalogues, lessons/strings/<lang>.strings, and lessons/languages.json for the
# page's language menu: {"en": "English", "es": "Español"} from each file's [language] name.
set(language_names "")
foreach(path IN LISTS STRINGS)
  file(COPY ${path} DESTINATION ${SITE}/lessons/strings)
  get_filename_component(code ${path} NAME_WE)
  file(STRINGS ${path} lines ENCODING UTF-8)
  set(section "")
  set(name "${code}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[ \t]*\\[([^]]*)\\][ \t]*$")
      set(section "${CMAKE_MATCH_1}")
    elseif(section STREQUAL "language" AND line MATCHES "^[ \t]*name[ \t]*=[ \t]*(.*[^ \t])[ \t]*$")
      set(name "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  string(REPLACE "\\" "\\\\" name "${name}")
  string(REPLACE "\"" "\\\"" name "${name}")
  list(APPEND language_names "\"${code}\": \"${name}\"")
endforeach()
list(JOIN language_names ", " languages_body)
file(WRITE ${SITE}/lessons/languages.json "{${languages_body}}\n")
foreach(path IN LISTS SHELL_FILES)
  file(COPY ${path} DESTINATION ${SITE})
endforeach()

# Copies lesson files into `dir` and writes `dir`/index.json from their front matter.
function(copy_lessons_with_index dir paths)
  file(MAKE_DIRECTORY ${dir})
  set(entries "")
  foreach(path IN LISTS paths)
    file(COPY ${path} DESTINATION ${dir})
    file(STRINGS ${path} lines LIMIT_COUNT 40 ENCODING UTF-8)
    foreach(field id title level summary order)
      set(${field} "")
    endforeach()
    set(in_front FALSE)
    foreach(line IN LISTS lines)
      if(line STREQUAL "---")
        if(in_front)
          break()
        endif()
        set(in_front TRUE)
      elseif(in_front AND line MATCHES "^(id|title|level|summary|order):[ \t]*(.*)$")
        set(${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
      endif()
    endforeach()
    get_filename_component(file ${path} NAME)
    get_filename_component(stem ${path} NAME_WE)
    if(id STREQUAL "")
      set(id ${stem})
    endif()
    foreach(field id title level summary)   # JSON string escapes
      string(REGEX REPLACE "^\"(.*)\"$" "\\1" ${field} "${${field}}")
      string(REPLACE "\\" "\\\\" ${field} "${${field}}")
      string(REPLACE "\"" "\\\"" ${field} "${${field}}")
    endforeach()
    if(NOT order MATCHES "^[1-9][0-9]*$")   # the lesson checker says why; the list puts it last
      set(order 0)
    endif()
    list(APPEND entries "  {\"id\": \"${id}\", \"file\": \"${file}\", \"title\": \"${title}\", \"level\": \"${level}\", \"summary\": \"${summary}\", \"order\": ${order}}")
  endforeach()
  list(JOIN entries ",\n" body)
  file(WRITE ${dir}/index.json "[\n${body}\n]\n")
endfunction()

copy_lessons_with_index(${SITE}/lessons "${LESSONS}")
# Translations, lessons/<lang>/ID.md (docs/translating.md): the same layout one folder down.
string(REPLACE "|" ";" TRANSLATIONS "${TRANSLATIONS}")
set(languages "")
foreach(path IN LISTS TRANSLATIONS)
  get_filename_component(folder ${path} DIRECTORY)
  get_filename_component(lang ${folder} NAME)
  list(APPEND languages ${lang})
  list(APPEND translations_${lang} ${path})
endforeach()
list(REMOVE_DUPLICATES languages)
foreach(lang IN LISTS languages)
  copy_lessons_with_index(${SITE}/lessons/${lang} "${translations_${lang}}")
endforeach()

file(SIZE ${SITE}/lesson.wasm wasm_bytes)
file(SIZE ${SITE}/lesson.data data_bytes)
# The in-page trainer's code and training tokens (fetched only when a learner presses Train,
# web/shell/np-lm-worker.js): their raw sizes, for its progress bar.
set(trainer_sizes "")
file(GLOB trainer_files RELATIVE ${SITE} ${SITE}/lm-trainer.wasm ${SITE}/models/*.nptok)
foreach(name IN LISTS trainer_files)
  file(SIZE ${SITE}/${name} bytes)
  string(APPEND trainer_sizes ", \"${name}\": ${bytes}")
endforeach()
file(WRITE ${SITE}/asset-sizes.json "{\"lesson.wasm\": ${wasm_bytes}, \"lesson.data\": ${data_bytes}${trainer_sizes}}\n")

# Content-hashed copies of the engine's files (lesson.<16 hex>.js/.wasm/.data): a name that
# changes with the content lets servers cache them for good (web/serve.mjs does). The page
# finds them through asset-names.json; the plain names stay for tools that expect them.
file(GLOB stale_hashed ${SITE}/lesson.*.js ${SITE}/lesson.*.wasm ${SITE}/lesson.*.data)
list(FILTER stale_hashed INCLUDE REGEX "/lesson\\.[0-9a-f]+\\.[a-z]+$")
if(stale_hashed)
  file(REMOVE ${stale_hashed})
endif()
set(names "")
foreach(asset lesson.js lesson.wasm lesson.data)
  file(SHA256 ${SITE}/${asset} hash)
  string(SUBSTRING ${hash} 0 16 short)
  string(REGEX REPLACE "^lesson\\." "lesson.${short}." hashed ${asset})
  configure_file(${SITE}/${asset} ${SITE}/${hashed} COPYONLY)
  list(APPEND names "\"${asset}\": \"${hashed}\"")
endforeach()
list(JOIN names ", " names)
file(WRITE ${SITE}/asset-names.json "{${names}}\n")

# lesson.html names the engine's files itself, as preload links in its head: the browser starts
# their downloads while it reads the HTML, where asking asset-names.json first cost the page's
# scripts and two round trips before the largest download could begin (#33). np-app.js reads
# the names and raw sizes (for the progress bar) from the links; without them (a page copied by
# hand) it falls back to asset-names.json and asset-sizes.json.
set(preloads "")
foreach(asset lesson.wasm lesson.data lesson.js)
  file(SHA256 ${SITE}/${asset} hash)
  string(SUBSTRING ${hash} 0 16 short)
  string(REGEX REPLACE "^lesson\\." "lesson.${short}." hashed ${asset})
  file(SIZE ${SITE}/${asset} bytes)
  if(asset STREQUAL "lesson.js")
    set(kind "as=\"script\"")
  else()
    set(kind "as=\"fetch\" crossorigin")  # fetch() asks in cors mode: the preload must match it
  endif()
  string(APPEND preloads "<link rel=\"preload\" href=\"${hashed}\" ${kind} data-np-asset=\"${asset}\" data-np-bytes=\"${bytes}\">\n  ")
endforeach()
# The English catalogue too: every page reads it (np-strings.js, under any language's words), and
# the engine's start waits for the page's words, so it was one more round trip after the page's
# scripts ran before the glue could start (#33).
string(APPEND preloads "<link rel=\"preload\" href=\"lessons/strings/en.strings\" as=\"fetch\" crossorigin>\n  ")
# The SHA-256 of each lesson text the build checked with the engine's checks and found sound
# (ship_trained_weights.cmake): the page skips those checks for such a text (np-app.js).
if(CHECKED_DIGESTS AND EXISTS ${CHECKED_DIGESTS})
  file(STRINGS ${CHECKED_DIGESTS} digests REGEX "^[0-9a-f]+$")
  list(JOIN digests " " digests)
  string(APPEND preloads "<meta name=\"np-checked-lessons\" content=\"${digests}\">\n  ")
endif()
file(READ ${SITE}/lesson.html lesson_page)
string(REPLACE "<!-- np:engine-preloads -->\n  " "${preloads}" lesson_page "${lesson_page}")
file(WRITE ${SITE}/lesson.html "${lesson_page}")
