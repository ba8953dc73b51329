# Embeds an Arc source file into the binary as a std::string_view.
# cmake -DINPUT=... -DOUTPUT=... -DNAME=... -P embed.cmake
file(READ "${INPUT}" content)
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT} by cmake/embed.cmake; do not edit.\n"
  "#include <string_view>\n"
  "namespace compiler {\n"
  "extern const std::string_view ${NAME};\n"
  "const std::string_view ${NAME} = R\"ARCANA_EMBED(${content})ARCANA_EMBED\";\n"
  "}\n")
