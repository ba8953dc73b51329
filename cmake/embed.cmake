# Embeds an Arc source file into the binary as a std::string_view, and the
# first 64 bits of its SHA-256 as NAME_hash (the library image's check that
# it was made from these sources, compiler/image.h).
# cmake -DINPUT=... -DOUTPUT=... -DNAME=... -P embed.cmake
file(READ "${INPUT}" content)
file(SHA256 "${INPUT}" sha)
string(SUBSTRING "${sha}" 0 16 sha64)
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT} by cmake/embed.cmake; do not edit.\n"
  "#include <string_view>\n"
  "namespace compiler {\n"
  "extern const std::string_view ${NAME};\n"
  "extern const unsigned long long ${NAME}_hash;\n"
  "const unsigned long long ${NAME}_hash = 0x${sha64}ull;\n"
  "const std::string_view ${NAME} = R\"ARCANA_EMBED(${content})ARCANA_EMBED\";\n"
  "}\n")
