// imgui_test_config.h: ImGui's user config for the test build (IMGUI_USER_CONFIG). Every
// IM_ASSERT inside ImGui — a Begin without End, an ID stack left unbalanced, a bad argument —
// throws ImGuiAssertion instead of aborting, so doctest reports it as a failed test.
#pragma once

namespace neuralpath::ui::test {
[[noreturn]] void imgui_assertion_failed(const char* expression, const char* file, int line);
}

#define IM_ASSERT(_EXPR) \
  ((_EXPR) ? (void)0 : ::neuralpath::ui::test::imgui_assertion_failed(#_EXPR, __FILE__, __LINE__))
