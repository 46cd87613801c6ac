// cli_runner.h: runs the real neuralpath-cli binary for the CLI contract tests (cli_test,
// cli_limits_test, grad_train_cli_test) and captures its exit code, stdout and stderr; json_lines
// reads what its JSON-lines commands print.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace neuralpath::test {

struct CliRun {
  int code;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh folder (unique per process and per use), removed when it goes out of scope.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("neuralpath-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

// `neuralpath-cli ARGS < stdin_path`, run through the shell in DIR. A `timeout` guards the
// inputs that used to hang (reading /dev/zero or a FIFO forever): a hang fails instead of
// blocking ctest.
inline CliRun run_cli(const TempDir& dir, const std::string& args, const std::string& stdin_path = "/dev/null") {
  const std::string command = "timeout 60 '" NEURALPATH_CLI_PATH "' " + args + " < '" + stdin_path + "' > '" +
                              (dir.path / "out").string() + "' 2> '" + (dir.path / "err").string() + "'";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir.path / "out"), slurp(dir.path / "err")};
}

// `neuralpath-cli ARGS` with STDIN_TEXT as its standard input.
inline CliRun run_cli_text(const std::string& args, const std::string& stdin_text = "") {
  const TempDir dir;
  return run_cli(dir, args, dir.file("in", stdin_text));
}

// The contract for bad arguments and input: exit 2, nothing on stdout, exactly one line on
// stderr that names the problem.
inline void check_refused(const CliRun& r, const std::string& message) {
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find(message) != std::string::npos);
  CHECK(r.err.find('\n') == r.err.size() - 1);
}

// A JSON-lines output (one object a line, as `--json` and the lm commands print) as its objects.
inline std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

}  // namespace neuralpath::test
