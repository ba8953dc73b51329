// tests/unit/test_binary.cpp — the arcana binary as it is linked for a fast
// start (CMakeLists.txt, ARCANA_STATIC_EXE: wholly static, libc too). What
// such a link can break and the tests of the library do not reach, since
// they run in the test programs, linked as usual: a host name looked up
// through the name service, and each collector finding its roots in the
// static binary's data. The REPL's readline (test_repl.cpp) and
// --cpu-profile's libprofiler, opened at run time (test_cli_located.cpp),
// are tested with this binary too.
#include <catch2/catch.hpp>
#include <string>

#include "gc/heap.h"
#include "subprocess.h"

using namespace subprocess;

// connect-socket looks "localhost" up with getaddrinfo, which reads
// /etc/nsswitch.conf and /etc/hosts; the server listens on 127.0.0.1 only,
// so an address the name gives that nothing listens on (::1) is tried and
// passed over, as connect-socket does.
TEST_CASE("the arcana binary looks a host name up", "[binary]") {
  Result r = arcana({"-e",
                     "(let ls (open-socket 0 \"127.0.0.1\")"
                     "  (let acc nil"
                     "    (thread (= acc (socket-accept ls)))"
                     "    (let cl (connect-socket \"localhost\" (socket-port ls))"
                     "      (disp \"ping\\n\" (cl 1))"
                     "      (close (cl 1))"
                     "      (until acc (sleep 0.001))"
                     "      (list (readline (acc 0)) (acc 2)))))"});
  CHECK(r.exited_with(0));
  CHECK(r.err.empty());
  CHECK(r.out == "(\"ping\" \"127.0.0.1\")\n");
}

TEST_CASE("the arcana binary collects under every collector", "[binary]") {
  // Enough allocation for collections under each (gen's eden is 1 MiB); the
  // list lives across them, reached from a global and from the frames, and
  // a second thread reads it.
  const std::string program =
      "(= xs nil)"
      "(for i 1 200000 (push (list i (string i)) xs))"
      "(let r nil"
      "  (thread (= r (let s 0 (each x xs (++ s (car x))) s)))"
      "  (until r (sleep 0.001))"
      "  (list (len xs) r (len (keep [is (string (car _)) (cadr _)] xs))))";
  for (const std::string& gc : gc::heap_names()) {
    INFO("--gc=" << gc);
    Result r = arcana({"--gc=" + gc, "-e", program});
    CHECK(r.exited_with(0));
    CHECK(r.err.empty());
    CHECK(r.out == "(200000 20000100000 200000)\n");
  }
}
