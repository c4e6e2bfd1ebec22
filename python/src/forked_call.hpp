// SimGrid allows one engine per process: every simulation asked from Python runs in a forked child
// (which touches no Python object) and sends back its JSON text, or "error <message>", through a pipe.
#pragma once
#include <functional>
#include <string>

namespace hetlb::python {

// Runs `body` in a child process and returns its text; throws hetlb::Error with the child's message
// when it threw, std::runtime_error when it died. Call without the GIL.
std::string forked_call(const std::function<std::string()>& body);

}  // namespace hetlb::python
