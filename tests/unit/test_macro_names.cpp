// tests/unit/test_macro_names.cpp — the macros the library adds to Arc 3.1's
// (docs/LANGUAGE.md 3.9). Arc 3.1 expands a global macro's name in call
// position even where a local of that name is in scope, so every macro
// added beyond Arc 3.1's takes a word from the programs written for it:
// with a global macro prof, news.arc's `(prof 'field)` on its local prof
// ran the macro. Each added macro is listed here, and its name is one no
// Arc program plausibly uses as a variable: it starts with %, it is a w/
// form (Arc 3.1's own convention for macros that bind), or it is a long
// hyphenated name.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "compiler/runtime.h"
#include "vm/object.h"
#include "vm/print.h"
#include "vm/symbol.h"

using namespace vm;

namespace {

// Every macro of pg's Arc 3.1 (arc.arc, the libraries libs.arc loads,
// news.arc, blog.arc), as `(mac NAME` and `(assign NAME (annotate 'mac`
// name them.
const char* const kArc31Macros[] = {
    "++",         "--",           "=",
    "aand",       "accum",        "addtem",
    "adop",       "afn",          "afnid",
    "aform",      "aformh",       "after",
    "aif",        "and",          "arform",
    "arformh",    "atlet",        "atomic",
    "attribute",  "atwith",       "atwiths",
    "awhen",      "blogpage",     "case",
    "caselet",    "catch",        "cdata",
    "center",     "check",        "complement",
    "compose",    "conswhen",     "def",
    "defbg",      "defcache",     "defhook",
    "defmemo",    "defop",        "defop-raw",
    "defopa",     "defope",       "defopg",
    "defopl",     "defopr",       "defopr-raw",
    "defopt",     "defs",         "defset",
    "deftem",     "disktable",    "diskvar",
    "do",         "do1",          "down",
    "drain",      "each",         "each-loaded-item",
    "edop",       "endmatch",     "errsafe",
    "evtil",      "flatlen",      "fontcolor",
    "for",        "forlen",       "form",
    "fromdisk",   "fromstring",   "fulltop",
    "gentag",     "iflet",        "ignored",
    "in",         "inputs",       "insort",
    "insortnew",  "jtime",        "karma",
    "let",        "linkf",        "litmatch",
    "longpage",   "loop",         "mac",
    "max2",       "minipage",     "n-of",
    "new-hspace", "newscache",    "newsop",
    "noisy-each", "nor",          "npage",
    "obj",        "on",           "onlink",
    "onrlink",    "opexpand",     "opmeth",
    "or",         "or=",          "out",
    "point",      "pop",          "prbold",
    "prf",        "prrow",        "pull",
    "push",       "pushnew",      "rand-choice",
    "repeat",     "rfn",          "rlinkf",
    "rotate",     "row",          "safeset",
    "set",        "shortpage",    "spanclass",
    "spanrow",    "sptab",        "summing",
    "swap",       "tab",          "taform",
    "tag",        "tag-if",       "tarform",
    "td",         "tdcolor",      "tdr",
    "testlit",    "testop",       "textarea",
    "thread",     "time",         "time10",
    "todisk",     "togglemem",    "tostring",
    "tr",         "trav",         "trtd",
    "uform",      "ulink",        "underline",
    "unless",     "until",        "urform",
    "uvar",       "w/appendfile", "w/bars",
    "w/infile",   "w/instring",   "w/link",
    "w/link-if",  "w/outfile",    "w/outstring",
    "w/rlink",    "w/socket",     "w/stdin",
    "w/stdout",   "w/table",      "w/uniq",
    "when",       "when-umatch",  "when-umatch/r",
    "whenlet",    "while",        "whiler",
    "whilet",     "whitepage",    "widtable",
    "wipe",       "with",         "withs",
    "zap",        "zerotable",
};

// The macros the library adds, each a name of the rule above.
const char* const kAddedMacros[] = {"%app-change", "%forward", "%prompt-admin-only", "w/profile",
                                    "profile-top"};

bool arc31_macro(const std::string& name) {
  return std::find(std::begin(kArc31Macros), std::end(kArc31Macros), name) !=
         std::end(kArc31Macros);
}

bool is_macro(VM& vm, Value v) {
  return TYPE(v) == Kind::Tagged && v.as<Tagged>()->tag == vm.S.mac;
}

}  // namespace

TEST_CASE(
    "every macro the library adds to Arc 3.1's is listed, and has a name no program uses as a "
    "variable",
    "[names]") {
  compiler::Runtime rt;
  VM& vm = rt.vm();
  std::vector<std::string> added;
  for (Value sym : all_symbols(vm)) {
    if (TYPE(sym) != Kind::Symbol || !is_macro(vm, global_value(sym))) continue;
    std::string name = symbol_name(sym);
    if (!arc31_macro(name)) added.push_back(name);
  }
  std::sort(added.begin(), added.end());
  std::vector<std::string> listed(std::begin(kAddedMacros), std::end(kAddedMacros));
  std::sort(listed.begin(), listed.end());
  CHECK(added == listed);
  for (const std::string& name : listed) {
    INFO(name);
    CHECK((name[0] == '%' || name.rfind("w/", 0) == 0 ||
           (name.size() >= 10 && name.find('-') != std::string::npos)));
  }
  // Arc 3.1's own are macros here too, and locals do not shadow them.
  CHECK(is_macro(vm, global_value(intern(vm, "def"))));
  CHECK(is_macro(vm, global_value(intern(vm, "w/infile"))));
  CHECK(write_string(vm, rt.eval_string("(let prof (obj a 1) (prof 'a))")) == "1");
}
