// tests/unit/test_repl.cpp — the arcana REPL, driven through a pseudo-terminal
// as a person would: results, multi-line input, Tab completion, error
// recovery, the history file, Ctrl-C and Ctrl-D. Each session runs the real
// binary with HOME set to a fresh temporary directory and TERM=dumb (or a
// real terminal's TERM where cursor movement matters); every read has a
// timeout, and a session that fails is killed.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

// A fresh directory to serve as HOME, removed at the end.
struct TempHome {
  std::string path;
  TempHome() {
    char tmpl[] = "/tmp/arcana-repl-XXXXXX";
    char* p = mkdtemp(tmpl);
    REQUIRE(p != nullptr);
    path = p;
  }
  ~TempHome() { std::system(("rm -rf '" + path + "'").c_str()); }
};

// One REPL session on a pseudo-terminal.
class Session {
 public:
  explicit Session(const std::string& home, const char* term = "dumb") {
    winsize ws{};
    ws.ws_row = 24;
    ws.ws_col = 200;
    pid_ = forkpty(&fd_, nullptr, nullptr, &ws);
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", term, 1);
      unsetenv("INPUTRC");
      unsetenv("ARCANA_GC");
      execl(ARCANA_BINARY, "arcana", (char*)nullptr);
      _exit(127);
    }
  }
  ~Session() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }

  void send(const std::string& s) {
    size_t done = 0;
    while (done < s.size()) {
      ssize_t n = write(fd_, s.data() + done, s.size() - done);
      if (n < 0 && errno == EINTR) continue;
      REQUIRE(n > 0);
      done += size_t(n);
    }
  }

  // Reads until the output after the mark holds needle; true if it came
  // before the timeout. The mark moves past the match.
  bool expect(const std::string& needle, int timeout_ms = 5000) {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      size_t at = out_.find(needle, mark_);
      if (at != std::string::npos) {
        mark_ = at + needle.size();
        return true;
      }
      if (!pump(deadline)) {
        if (pid_ < 0) UNSCOPED_INFO("arcana exited, wait status " << status_);
        UNSCOPED_INFO("waiting for \"" << needle << "\"; output after mark:\n"
                                       << out_.substr(mark_));
        return false;
      }
    }
  }

  // The prompt, then a line, then its echo is read back.
  bool prompt_then(const std::string& line) {
    if (!expect("arc> ")) return false;
    send(line + "\r");
    return true;
  }

  // Waits for the process to exit; its wait status, or -1 on timeout.
  int wait_exit(int timeout_ms = 5000) {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      if (pid_ < 0) return status_;
      int status;
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        pid_ = -1;
        return status;
      }
      if (r < 0) return -1;
      if (Clock::now() > deadline) return -1;
      pump(Clock::now() + std::chrono::milliseconds(20));
    }
  }

  const std::string& output() const { return out_; }

 private:
  // Reads what is available before the deadline; false on timeout or end.
  bool pump(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    int r = poll(&p, 1, int(left.count()));
    if (r < 0 && errno == EINTR) return true;
    if (r <= 0) return false;
    char buf[4096];
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
    if (n <= 0) {  // EIO once the child has gone
      int status;
      if (pid_ > 0 && waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        status_ = status;
      }
      return false;
    }
    out_.append(buf, size_t(n));
    return true;
  }

  pid_t pid_ = -1;
  int status_ = -1;  // the wait status, once reaped
  int fd_ = -1;
  std::string out_;
  size_t mark_ = 0;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("repl prints the value of a form", "[repl]") {
  TempHome home;
  Session s(home.path);
  REQUIRE(s.prompt_then("(+ 1 2)"));
  CHECK(s.expect("\n3\r\n"));
  CHECK(s.expect("arc> "));
}

TEST_CASE("repl reads a form over several lines", "[repl]") {
  TempHome home;
  Session s(home.path);
  REQUIRE(s.prompt_then("(+ 1"));
  CHECK(s.expect("..."));  // the continuation prompt
  s.send("2)\r");
  CHECK(s.expect("\n3\r\n"));
  CHECK(s.expect("arc> "));
}

TEST_CASE("repl completes global names with Tab", "[repl]") {
  TempHome home;
  Session s(home.path);
  REQUIRE(s.expect("arc> "));
  // scar is the only bound global starting with "sca"; the result can only
  // be 42 if Tab completed it.
  s.send("(sca\t");
  CHECK(s.expect("r"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  s.send("(cons 7 8) 42)\r");
  CHECK(s.expect("\n42\r\n"));
  CHECK(s.output().find("Error") == std::string::npos);
}

TEST_CASE("repl reports an error and goes on", "[repl]") {
  TempHome home;
  Session s(home.path);
  REQUIRE(s.prompt_then("(car 5)"));
  CHECK(s.expect("Error: Can't take car of 5"));
  REQUIRE(s.prompt_then("(+ 2 2)"));
  CHECK(s.expect("\n4\r\n"));
}

TEST_CASE("repl keeps history across sessions", "[repl]") {
  TempHome home;
  {
    Session s(home.path);
    REQUIRE(s.prompt_then("(* 6 7)"));
    CHECK(s.expect("\n42\r\n"));
    REQUIRE(s.expect("arc> "));
    s.send("\x04");
    CHECK(s.wait_exit() == 0);
  }
  CHECK(slurp(home.path + "/.arcana_history").find("(* 6 7)") != std::string::npos);
  {
    Session s(home.path);
    REQUIRE(s.expect("arc> "));
    s.send("\x1b[A");  // Up: the previous session's form
    CHECK(s.expect("(* 6 7)"));
    s.send("\r");
    CHECK(s.expect("\n42\r\n"));
  }
}

TEST_CASE("repl interrupts an evaluation on Ctrl-C", "[repl]") {
  TempHome home;
  Session s(home.path);
  REQUIRE(s.prompt_then("((fn (f) (f f)) (fn (f) (f f)))"));
  REQUIRE(s.expect("(f f)))\r\n"));  // the echo: readline has the line
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  s.send("\x03");
  CHECK(s.expect("interrupted"));
  REQUIRE(s.prompt_then("(+ 1 1)"));
  CHECK(s.expect("\n2\r\n"));
}

TEST_CASE("repl discards the line being typed on Ctrl-C", "[repl]") {
  TempHome home;
  Session s(home.path);
  REQUIRE(s.prompt_then("(+ 1"));
  REQUIRE(s.expect("..."));
  s.send("(car 5");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  s.send("\x03");
  REQUIRE(s.prompt_then("(+ 3 4)"));
  CHECK(s.expect("\n7\r\n"));
  CHECK(s.output().find("Error") == std::string::npos);
}

TEST_CASE("repl exits with status 0 on Ctrl-D", "[repl]") {
  TempHome home;
  Session s(home.path);
  REQUIRE(s.expect("arc> "));
  s.send("\x04");
  int status = s.wait_exit();
  REQUIRE(status != -1);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("repl completes the name after ssyntax, not inside a string", "[repl]") {
  TempHome home;
  Session s(home.path);
  REQUIRE(s.expect("arc> "));
  s.send("(map ~sca\t");  // ~ is ssyntax: the name after it completes
  CHECK(s.expect("~scar"));
  s.send("\x03");
  REQUIRE(s.expect("arc> "));
  s.send("(car:sca\t");
  CHECK(s.expect("car:scar"));
  s.send("\x03");
  REQUIRE(s.expect("arc> "));
  // Inside a string Tab adds nothing: the string stays "sca", length 3.
  s.send("(len \"sca\t");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  s.send("\")\r");
  CHECK(s.expect("\n3\r\n"));
}

TEST_CASE("repl starts a fresh prompt on a new line after Ctrl-C", "[repl]") {
  TempHome home;
  Session s(home.path, "xterm");
  REQUIRE(s.expect("arc> "));
  s.send("(+ 1");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  s.send("\x03");
  // ^C after the text typed, then the prompt at the start of the next line
  // (not ^C written over the old prompt after a carriage return).
  CHECK(s.expect("(+ 1^C\r\n"));
  CHECK(s.expect("arc> "));
  s.send("(+ 3 4)\r");
  CHECK(s.expect("7\r\n"));
}

TEST_CASE("repl prints other threads' output above a redrawn prompt", "[repl]") {
  TempHome home;
  Session s(home.path);
  REQUIRE(s.prompt_then("(do (thread (sleep 1) (prn \"from-thread\")) 'started)"));
  REQUIRE(s.expect("started\r\n"));
  REQUIRE(s.expect("arc> "));
  s.send("(+ 2");  // typed before the thread prints
  REQUIRE(s.expect("(+ 2"));
  CHECK(s.expect("from-thread\r\n", 8000));
  CHECK(s.expect("arc> (+ 2"));  // the prompt and the text, drawn again below
  s.send(" 5)\r");
  CHECK(s.expect("\n7\r\n"));
}
