// Whether hetlb can write a user's output file, and why not, and the one way it writes one: every
// command checks its output paths (figures, traces, rankings, hostfiles) before it works, so that a
// long run never ends on a path it cannot write, and writes them whole or not at all.
#pragma once

#include <filesystem>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

namespace hetlb {

// The file that writing `path` replaces: `path` made absolute, its symbolic links followed (a link
// is written through, like a shell redirection; the link stays). For a path that does not exist yet,
// its existing part is resolved and the rest kept.
std::filesystem::path output_target(const std::string& path);

// "" when a file can be written at `path` (created, or replaced in its folder), else "no file name",
// "is a directory", "is not a regular file" (a device, a named pipe or a socket: /dev/zero, /dev/full,
// a FIFO), "its folder does not exist", "its folder is not a directory" or "cannot write in its folder
// (<the system's reason>)". Two files that are not regular are written as they are: /dev/null, and the
// process's own standard output or error (/dev/stdout, a pipe the user chose).
std::string unwritable_reason(const std::string& path);

// Throws Error "OPTION "PATH": REASON; expected a writable path" when unwritable_reason is not "",
// then claims the path as OPTION's output (claim_output).
void check_writable(const std::string& option, const std::string& path);

// While an OutputTransaction is open, the command's files are registered: no output may replace one
// of its inputs, nor another of its outputs. Files are the same when they are one file (device and
// inode: links, hard links and other spellings of one path included) or, for paths that do not exist
// yet, when they name one file. /dev/null and standard output, written in place, are never refused.
//
// Records `path` as an input of the command: every reader of a user's file calls it (the accepted
// files of unreadable_reason, campaign results, plug-ins). Throws Error "OPTION "OUT": is an input of
// this command ("PATH"); expected another file" when an output already claimed is that file.
void register_input(const std::string& path);
// Claims `path` as the output of `option` ("" for a figure named by its path alone): throws Error
// "OPTION "PATH": is an input of this command[ ("INPUT")]; expected another file" or "OPTION "PATH": is
// also the output of OTHER "OTHERPATH"; expected another file". A path claimed again by the same option
// (or by "") is its one output.
void claim_output(const std::string& option, const std::string& path);

// Writes `path` through a temporary file beside output_target(path) (hetlb/temp_file.hpp: created
// exclusively, never through a planted link), renamed into place once whole (every write, the flush,
// the sync and the close checked): a failure leaves the old file (or none) and no temporary file.
// /dev/null and standard output are written directly. Inside an OutputTransaction the path is claimed
// first (claim_output) and the rename waits for its commit(). Throws Error "OPTION "PATH": cannot write
// the file (<reason>)".
void write_file(const std::string& option, const std::string& path,
                const std::function<void(std::ostream&)>& write);
void write_file(const std::string& option, const std::string& path, const std::string& text);


// Moves a finished temporary file `tmp` onto `target` (what `path` names): at once, or, while an
// OutputTransaction is open, at its commit(). Throws Error "LABEL: cannot write the file (<reason>)"
// and removes `tmp` when the rename fails, and Error "LABEL: written twice by this command; expected
// one output per file" when `target` is staged already.
void commit_output(const std::filesystem::path& tmp, const std::filesystem::path& target, const std::string& label);

// A command's outputs, all or none: files written while it is open (write_file, figures) stay
// temporary until commit() renames them into place; destroyed without commit() (an error, a later
// output that cannot be written), it removes them, so no output file is left by a failed command.
// Transactions nest: an inner one commits (or drops) only the files written since it was opened, so
// a part that is whole by itself (a campaign's report) is written even if the command fails later.
// The outermost one also holds the command's registered inputs and claimed outputs (register_input).
class OutputTransaction {
 public:
  OutputTransaction();
  ~OutputTransaction();
  OutputTransaction(const OutputTransaction&) = delete;
  OutputTransaction& operator=(const OutputTransaction&) = delete;
  void commit();

 private:
  bool owner_ = false;     // the outermost transaction
  std::size_t first_ = 0;  // its first staged file
};

// Flushes and closes standard output, checking every write it took: throws Error "standard output:
// cannot write (<reason>)" when any was lost (a full disk, /dev/full, a closed descriptor).
void finish_standard_output();

}  // namespace hetlb
