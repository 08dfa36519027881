// The thread's last C ABI error, shared by the translation units of liblwc.so
// (lwc_error_message() reads it).
#pragma once

#include <string>

namespace lwc::capi {
void set_error(std::string message);
}  // namespace lwc::capi
