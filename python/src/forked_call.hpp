// SimGrid allows one engine per process: every simulation asked from Python runs in a forked child
// (which touches no Python object) and sends back its JSON text, or "error <message>", through a pipe.
#pragma once
#include <functional>
#include <string>

namespace hetlb::python {

// Runs `body` in a child process and returns its text; throws hetlb::Error with the child's message
// when it threw, std::runtime_error when it died. Call without the GIL. Every 100 ms of waiting,
// `interrupted` is asked (it takes the GIL to check Python's signals): when it returns true the child is
// killed and forked_call throws Interrupted.
struct Interrupted {};
std::string forked_call(const std::function<std::string()>& body, const std::function<bool()>& interrupted = {});

}  // namespace hetlb::python
