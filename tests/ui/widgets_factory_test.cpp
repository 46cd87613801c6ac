// make_widget() and "explain any number": every widget block of the launch lessons becomes its
// widget and draws for many frames; a number opens its explanation on click and on Enter.
#include "widgets_support.h"

#include "engine/ui/widgets/explain.h"
#include "engine/ui/widgets/registry.h"

#include <doctest/doctest.h>

#include <imgui_internal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

using namespace neuralpath;
using nlohmann::json;
using widgets_test::Headless;

TEST_CASE("every folder of engine/widgets/ is one kind of the registry, named once, with its view") {
  std::set<std::string> folders;
  for (const auto& entry : std::filesystem::directory_iterator("engine/widgets"))
    if (entry.is_directory()) folders.insert(entry.path().filename().string());
  const auto& kinds = widgets::widget_kinds();
  CHECK(kinds.size() == folders.size());
  CHECK(kinds.size() >= 10);
  std::set<std::string> names;
  for (const widgets::WidgetKind* kind : kinds) {
    REQUIRE(kind != nullptr);
    CHECK(names.insert(kind->name()).second);
    CHECK(widgets::find_widget_kind(kind->name()) == kind);
    CHECK(ui::find_view_kind(kind->name()) != nullptr);
    std::string folder = kind->name();
    std::replace(folder.begin(), folder.end(), '-', '_');  // "mask-steps" lives in mask_steps/
    CHECK_MESSAGE(folders.count(folder) == 1, kind->name());
  }
  CHECK(widgets::find_widget_kind("paragraph") == nullptr);
  CHECK(widgets::find_widget_kind("") == nullptr);
  CHECK(ui::find_view_kind("paragraph") == nullptr);
}

TEST_CASE("a widget's snapshot reopens its state in a fresh widget of the same block") {
  struct Case {
    const char* block;
    json change;
  };
  for (const Case& c : {Case{"causal-grid", {{"type", "setMask"}, {"mask", "none"}}},
                        Case{"it-spotlight", {{"type", "setQuery"}, {"query", "street"}}},
                        Case{"mask-walkthrough", {{"type", "stage"}, {"stage", "masked"}}},
                        Case{"cost", {{"type", "setLength"}, {"T", 5000}}}}) {
    CAPTURE(c.block);
    auto first = widgets_test::widget(c.block);
    REQUIRE(first->command(c.change).done());
    const json snapshot = first->snapshot();
    REQUIRE(snapshot.is_object());
    auto second = widgets_test::widget(c.block);
    CHECK(second->state() != first->state());  // the change is not the block's default
    REQUIRE(second->restore(snapshot).done());
    CHECK(second->state() == first->state());
    CHECK(second->restore(json::array()).outcome() == widgets::CommandResult::Outcome::refused);
  }
}

TEST_CASE("make_widget builds every widget block of the launch lessons and nothing else") {
  // What to expect is read from the lesson files themselves: one widget per ```kind fence of a
  // widget kind, in reading order; prose, checks, code and the rest make none.
  std::string names;  // every kind's block name, as the fence's alternatives
  for (const widgets::WidgetKind* kind : widgets::widget_kinds())
    names += (names.empty() ? "" : "|") + std::string(kind->name());
  const std::regex fence("^```(" + names + ")\\s*$");
  for (const char* id : {"self-attention", "course-playback"}) {
    CAPTURE(id);
    std::vector<std::string> expected, made;
    std::ifstream file(std::string("lessons/") + id + ".md");
    REQUIRE(file);
    for (std::string line; std::getline(file, line);) {
      std::smatch m;
      if (std::regex_match(line, m, fence)) expected.push_back(m[1]);
    }
    const lesson::Lesson& l = widgets_test::lesson(id);
    lesson::for_each_block(l, [&](const lesson::Block& block) {
      auto w = ui::make_widget(block, l, widgets_test::spec(id));
      if (!w) return;
      made.push_back(w->kind());
      CHECK(w->state()["kind"] == made.back());
      CHECK(w->state().value("error", std::string()) == "");
    });
    CHECK_FALSE(expected.empty());
    CHECK(made == expected);
  }
}

TEST_CASE("every widget of the launch lessons draws for many frames at phone, tablet and desktop widths") {
  for (const char* id : {"self-attention", "course-playback"}) {
    const lesson::Lesson& l = widgets_test::lesson(id);
    for (const float width : {375.0f, 768.0f, 1440.0f}) {
      CAPTURE(id);
      CAPTURE(width);
      Headless page(width, 900);
      std::vector<std::unique_ptr<ui::Widget>> widgets;
      lesson::for_each_block(l, [&](const lesson::Block& block) {
        if (auto w = ui::make_widget(block, l, widgets_test::spec(id))) widgets.push_back(std::move(w));
      });
      for (int frame = 0; frame < 60; ++frame) {
        for (auto& w : widgets) w->update(1.0f / 60);
        CHECK(page.frame([&](const ui::UiContext& ui) {
          for (auto& w : widgets) w->draw(ui);
        }));
      }
    }
  }
}

TEST_CASE("a drawn number opens its explanation on a click and on Enter, built only then") {
  Headless page(800, 600);
  ui::Explainer explain;
  int built = 0;
  ImVec2 min, max;
  ImGuiID item = 0;
  const auto draw = [&](const ui::UiContext& ui) {
    ImGui::PushID("explain-test");
    explain.number(ui, "##n", "41.2%", [&] {
      ++built;
      return widgets::Explanation{"A weight", "w = e / Σ", {{"e", "0.74"}}, "Because softmax."};
    });
    min = ImGui::GetItemRectMin();
    max = ImGui::GetItemRectMax();
    item = ImGui::GetItemID();
    explain.draw_popup(ui);
    ImGui::PopID();
  };
  CHECK(page.frame(draw));
  CHECK(built == 0);
  CHECK(explain.state()["open"] == false);
  page.click(ImVec2((min.x + max.x) / 2, (min.y + max.y) / 2));
  for (int i = 0; i < 3; ++i) CHECK(page.frame(draw));
  CHECK(built == 1);
  const json s = explain.state();
  CHECK(s["open"] == true);
  CHECK(s["title"] == "A weight");
  CHECK(s["inputs"][0]["value"] == "0.74");
  CHECK(explain.take_events().size() == 1);
  // A click elsewhere closes the popup.
  page.click(ImVec2(790, 590));
  for (int i = 0; i < 3; ++i) CHECK(page.frame(draw));
  CHECK(explain.state()["open"] == false);
  // Keyboard: focus the number, press Enter.
  ImGui::SetFocusID(item, ImGui::FindWindowByName("page"));
  page.press(ImGuiKey_Enter);
  for (int i = 0; i < 2; ++i) CHECK(page.frame(draw));
  CHECK(built == 2);
  CHECK(explain.state()["open"] == true);
}
