// compiler/image.h — the library image: the Arc-level library compiled at
// build time, so that a start runs the library's code instead of reading,
// expanding and compiling its source again.
//
// The build compiles the library once (tools/make_image.cpp, through
// Runtime's recording mode), writing down each top-level form's code
// object as the compiler made it, before it ran; the image is linked into
// the binary (CMakeLists.txt, "The library image"). A start then decodes
// each form's code and runs it, in the same order, so the globals, macros
// and tables the library builds are built by the same code as before, and
// a later form's code is the one its macros gave at build time: expansion
// depends only on what the earlier forms defined, which is what they
// define again at start.
//
// What a code object refers to is written by value, with the sharing
// within one form kept: numbers, characters, strings, interned symbols (by
// name the first time the image names one, later by that first naming's
// number, so that a start interns each name once), uninterned ones (one fresh symbol per symbol
// written), conses with their source positions (a file by its name the
// first time, later by number, as symbols are), line tables and nested
// code. A function the compiler or a macro put in the
// code as a constant (the expander's internal functions) is
// written as the global whose value it was when the form was compiled, and
// is that global's value at start, the same object since the same forms
// ran before. Any other kind of constant (a table, a closure no global
// holds) stops the build with the form's place: the image would not be
// faithful; so does a constant that holds itself (a circular list), which
// the reader, making a list or code object after what it holds, could not
// make.
//
// A function's body (a def's function, a macro's: a code object inside a
// form) is read on its first run, not at start (image.cpp, "Lazily read
// bodies"; vm/code.h, read_lazy_body), where what it gives is what a read
// at start would: the writer keeps a body whole in its form otherwise.
// The image stays mapped for the process's life (the binary's own; a copy
// of any other), as the VM's library state kLazyBodyReader.
//
// The image names the exact library sources it was made from (a hash of
// their text) and carries a checksum of itself; a start whose image does
// not match compiles the library from source instead, as a build without
// an image does (the image maker itself).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "vm/vm.h"

namespace compiler {

struct ImageNames;

// Records the library's forms as they are compiled.
class ImageWriter {
 public:
  ImageWriter();
  // code: the code object of a top-level form, just compiled, before it
  // runs (constants that are functions are looked up as globals now).
  void add_form(vm::VM& vm, vm::Value code, const std::string& where);
  // The forms added so far are the prelude's (VM::install_hooks after them).
  void end_prelude();
  // The image; uniq_count is (uniq)'s counter after the library.
  std::string finish(uint64_t uniq_count);
  ~ImageWriter();

 private:
  std::string forms_text_;  // the forms' stream
  std::string lazy_;        // the lazily read bodies
  // The numbers of interned symbols' and source files' names: the order
  // of the image's first naming (image.cpp).
  std::unique_ptr<ImageNames> symbols_, files_;
  uint32_t forms_ = 0;
  uint32_t prelude_forms_ = 0;
};

// The image linked into this binary, or an empty view if it has none.
std::string_view embedded_image();

// A hash of the library sources this binary embeds (kLibrary).
uint64_t library_source_hash();

struct ImageHeader {
  uint32_t forms = 0;
  uint32_t prelude_forms = 0;
  uint64_t uniq_count = 0;
  uint64_t symbols = 0;      // interned symbols the image names
  uint64_t files = 0;        // source files its positions name
  uint64_t forms_bytes = 0;  // the forms' stream's length
};
// Whether image is whole (magic, size, checksum) and was made from this
// binary's library sources; fills header if so. own: the image is the
// binary's own (embedded_image), whose checksum is not computed: its bytes
// are the binary's read-only data, made by the build that made the code
// (the sources' hash and the size are still checked), and the checksum was
// a noticeable share of a start's instructions. The reader checks every bound
// whatever the checksum said.
bool image_valid(std::string_view image, ImageHeader* header = nullptr, bool own = false);

// Runs the image's forms in order, calling after_prelude once the
// prelude's have run, if the image is valid (image_valid, checked here
// once; the embedded image as its own); false, running nothing, if not.
// Errors from the forms propagate as they would from the library's source.
bool run_image(vm::VM& vm, std::string_view image, void (*after_prelude)(vm::VM&));

}  // namespace compiler
