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
foreach(path IN LISTS STRINGS)   # the word catalogues, lessons/strings/<lang>.strings
  file(COPY ${path} DESTINATION ${SITE}/lessons/strings)
endforeach()
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
    foreach(field id title level summary)
      set(${field} "")
    endforeach()
    set(in_front FALSE)
    foreach(line IN LISTS lines)
      if(line STREQUAL "---")
        if(in_front)
          break()
        endif()
        set(in_front TRUE)
      elseif(in_front AND line MATCHES "^(id|title|level|summary):[ \t]*(.*)$")
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
    list(APPEND entries "  {\"id\": \"${id}\", \"file\": \"${file}\", \"title\": \"${title}\", \"level\": \"${level}\", \"summary\": \"${summary}\"}")
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
file(WRITE ${SITE}/asset-sizes.json "{\"lesson.wasm\": ${wasm_bytes}, \"lesson.data\": ${data_bytes}}\n")

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
