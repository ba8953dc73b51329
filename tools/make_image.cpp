// tools/make_image.cpp — writes the library image (compiler/image.h): runs
// at build time (CMakeLists.txt, "The library image"), compiling the
// Arc-level library from source with this build's own compiler.
//   arcana_make_image OUT
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>

#include "compiler/runtime.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT\n", argv[0]);
    return 2;
  }
  std::string image;
  try {
    compiler::RuntimeOptions opts;
    opts.record_image = &image;
    compiler::Runtime rt(opts);
  } catch (const std::exception& e) {  // the library's errors come as these (Runtime)
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  // Written whole under another name first, so an interrupted build never
  // leaves a partial image for the next to embed.
  std::string tmp = std::string(argv[1]) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(image.data(), std::streamsize(image.size()));
    if (!out.flush()) {
      std::fprintf(stderr, "%s: can't write %s\n", argv[0], tmp.c_str());
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), argv[1]) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
