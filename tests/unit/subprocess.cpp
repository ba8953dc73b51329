// tests/unit/subprocess.cpp — see subprocess.h.
#include "subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>

namespace subprocess {

using Clock = std::chrono::steady_clock;

Result run(const std::string& program, const std::vector<std::string>& args,
           const Options& options) {
  // A child that exits before reading all its input must not kill the
  // test with SIGPIPE: the write fails with EPIPE instead. (The child gets
  // the default back before it runs.)
  static const bool ignored = [] { return signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
  REQUIRE(ignored);
  int in_pipe[2], out_pipe[2], err_pipe[2];
  REQUIRE(pipe(in_pipe) == 0);
  REQUIRE(pipe(out_pipe) == 0);
  REQUIRE(pipe(err_pipe) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
      close(fd);
    unsetenv("ARCANA_GC");
    for (auto& [k, v] : options.env) setenv(k.c_str(), v.c_str(), 1);
    signal(SIGINT, SIG_DFL);  // not ignored, whatever started the tests
    signal(SIGPIPE, SIG_DFL);
    if (options.address_space) {
      rlimit r{options.address_space, options.address_space};
      setrlimit(RLIMIT_AS, &r);
    }
    if (options.stack) {  // the soft limit only: the hard one may be lower than asked
      rlimit r;
      getrlimit(RLIMIT_STACK, &r);
      r.rlim_cur = std::min<rlim_t>(options.stack, r.rlim_max);  // RLIM_INFINITY is the most
      setrlimit(RLIMIT_STACK, &r);
    }
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(program.c_str(), argv.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  // Input, output and errors in one poll loop, so that neither side waits
  // on a full pipe.
  Result r;
  size_t written = 0;
  if (options.input.empty()) {
    close(in_pipe[1]);
    in_pipe[1] = -1;
  } else {  // so that a write never blocks past what poll said fits
    fcntl(in_pipe[1], F_SETFL, fcntl(in_pipe[1], F_GETFL) | O_NONBLOCK);
  }
  pollfd fds[3] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {in_pipe[1], POLLOUT, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  auto deadline = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  bool timed_out = false;
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    int n = poll(fds, 3, int(left.count()));
    if (n <= 0) continue;  // EINTR, or the deadline
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !fds[i].revents) continue;
      char buf[4096];
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        sinks[i]->append(buf, size_t(got));
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
      }
    }
    if (fds[2].fd >= 0 && fds[2].revents) {
      ssize_t put =
          write(fds[2].fd, options.input.data() + written, options.input.size() - written);
      if (put > 0) written += size_t(put);
      if ((put < 0 && errno != EINTR && errno != EAGAIN) || written == options.input.size()) {
        close(fds[2].fd);
        fds[2].fd = -1;
      }
    }
  }
  if (timed_out) kill(pid, SIGKILL);
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  waitpid(pid, &status, 0);
  r.status = timed_out ? -1 : status;
  return r;
}

Result arcana(const std::vector<std::string>& args, const Options& options) {
  return run(ARCANA_BINARY, args, options);
}

TempDir::TempDir() {
  char tmpl[] = "/tmp/arcana-test-XXXXXX";
  char* p = mkdtemp(tmpl);
  REQUIRE(p != nullptr);
  path = p;
}

TempDir::~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }

std::string TempDir::write(const std::string& name, const std::string& text) const {
  std::string file = path + "/" + name;
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace subprocess
