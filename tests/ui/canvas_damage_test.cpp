// web/canvas_damage: the part of the canvas a frame changes, from draw lists made by hand (an
// ImGui context from the headless page, for its shared draw data) and from the lesson page.
#include "headless.h"
#include "web/canvas_damage.h"

#include <doctest/doctest.h>
#include <imgui.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

using neuralpath::ui::test::Headless;
using neuralpath::web::CanvasDamage;
using neuralpath::web::PixelRect;

namespace {

// One frame's draw data: a single list, drawn by `draw`, over a width x height display at `scale`.
struct Frame {
  std::unique_ptr<ImDrawList> list;
  ImDrawList* lists[1] = {};
  ImDrawData data;

  Frame(float width, float height, const std::function<void(ImDrawList&)>& draw, float scale = 1) {
    list = std::make_unique<ImDrawList>(ImGui::GetDrawListSharedData());
    list->_ResetForNewFrame();
    list->PushClipRect({0, 0}, {width, height});
    list->PushTextureID(ImGui::GetIO().Fonts->TexID);
    draw(*list);
    list->PopTextureID();
    list->PopClipRect();
    lists[0] = list.get();
    data.Valid = true;
    data.CmdLists = lists;
    data.CmdListsCount = 1;
    data.TotalVtxCount = list->VtxBuffer.Size;
    data.TotalIdxCount = list->IdxBuffer.Size;
    data.DisplayPos = {0, 0};
    data.DisplaySize = {width, height};
    data.FramebufferScale = {scale, scale};
  }
};

constexpr ImU32 red = IM_COL32(200, 0, 0, 255), blue = IM_COL32(0, 0, 200, 255);

// Two rectangles, the second at x = blue_x.
std::function<void(ImDrawList&)> two_rectangles(float blue_x, ImU32 first = red) {
  return [=](ImDrawList& list) {
    list.AddRectFilled({100, 100}, {200, 150}, first);
    list.AddRectFilled({blue_x, 400}, {blue_x + 100, 450}, blue);
  };
}

bool same(const PixelRect& a, const PixelRect& b) {
  return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1;
}

}  // namespace

TEST_CASE("the first frame is drawn whole, the same frame again not at all, a resize or forget() whole again") {
  Headless page(800, 600);
  page.frames(1);  // an ImGui context with its shared draw data
  CanvasDamage damage;
  const PixelRect whole{0, 0, 800, 600};
  CHECK(same(damage.changed(Frame(800, 600, two_rectangles(600)).data, 800, 600), whole));
  CHECK(damage.changed(Frame(800, 600, two_rectangles(600)).data, 800, 600).empty());
  CHECK(same(damage.changed(Frame(800, 500, two_rectangles(600)).data, 800, 500), PixelRect{0, 0, 800, 500}));
  CHECK(damage.changed(Frame(800, 500, two_rectangles(600)).data, 800, 500).empty());
  damage.forget();
  CHECK(same(damage.changed(Frame(800, 500, two_rectangles(600)).data, 800, 500), PixelRect{0, 0, 800, 500}));
}

TEST_CASE("a rectangle that moves damages the tiles it left and the tiles it reached, nothing else") {
  Headless page(800, 600);
  page.frames(1);
  CanvasDamage damage;
  damage.changed(Frame(800, 600, two_rectangles(600)).data, 800, 600);
  const PixelRect moved = damage.changed(Frame(800, 600, two_rectangles(610)).data, 800, 600);
  // Old 600..700, new 610..710 (one pixel of margin each way), y 400..450: tiles of 32 px.
  CHECK(same(moved, PixelRect{18 * 32, 12 * 32, 23 * 32, 15 * 32}));
  CHECK(moved.area() < 800 * 600 / 20);  // the red rectangle's tiles are not in it

  SUBCASE("a colour change damages that rectangle's tiles alone") {
    const PixelRect recoloured =
        damage.changed(Frame(800, 600, two_rectangles(610, IM_COL32(0, 150, 0, 255))).data, 800, 600);
    CHECK(same(recoloured, PixelRect{3 * 32, 3 * 32, 7 * 32, 5 * 32}));
  }
}

TEST_CASE("drawing order counts: two overlapping rectangles swapped damage where they overlap") {
  Headless page(800, 600);
  page.frames(1);
  CanvasDamage damage;
  auto in_order = [](bool red_first) {
    return [=](ImDrawList& list) {
      const auto red_rect = [&] { list.AddRectFilled({100, 100}, {300, 300}, red); };
      const auto blue_rect = [&] { list.AddRectFilled({250, 250}, {400, 400}, blue); };
      if (red_first) {
        red_rect();
        blue_rect();
      } else {
        blue_rect();
        red_rect();
      }
    };
  };
  damage.changed(Frame(800, 600, in_order(true)).data, 800, 600);
  const PixelRect swapped = damage.changed(Frame(800, 600, in_order(false)).data, 800, 600);
  REQUIRE_FALSE(swapped.empty());
  // Only tiles both rectangles touch: 249..301 in x and y.
  CHECK(same(swapped, PixelRect{7 * 32, 7 * 32, 10 * 32, 10 * 32}));
}

TEST_CASE("what is clipped away or off the canvas damages nothing; a HiDPI frame counts framebuffer pixels") {
  Headless page(800, 600);
  page.frames(1);
  CanvasDamage damage;
  auto with_hidden = [](float hidden_x) {
    return [=](ImDrawList& list) {
      list.AddRectFilled({100, 100}, {200, 150}, red);
      list.AddRectFilled({hidden_x, 1000}, {hidden_x + 50, 1100}, blue);  // below the 600 px display
      list.PushClipRect({0, 0}, {50, 50});
      list.AddRectFilled({hidden_x, 300}, {hidden_x + 50, 350}, blue);  // outside its clip rectangle
      list.PopClipRect();
    };
  };
  damage.changed(Frame(800, 600, with_hidden(300)).data, 800, 600);
  CHECK(damage.changed(Frame(800, 600, with_hidden(500)).data, 800, 600).empty());

  CanvasDamage sharp;
  sharp.changed(Frame(400, 300, two_rectangles(200), 2).data, 800, 600);
  const PixelRect moved = sharp.changed(Frame(400, 300, two_rectangles(210), 2).data, 800, 600);
  // Display x 200..310 is framebuffer 400..620 (one pixel margin), y 400..450 is 800..900: off
  // the 600 px framebuffer below 600, so nothing; the red rectangle's row stays whole.
  CHECK(moved.empty());
  const PixelRect recoloured = sharp.changed(Frame(400, 300, two_rectangles(210, blue), 2).data, 800, 600);
  CHECK(same(recoloured, PixelRect{6 * 32, 6 * 32, 13 * 32, 10 * 32}));  // 199..401 x 199..301
}

TEST_CASE("the lesson page: at rest nothing is drawn again, a scroll redraws most of the canvas") {
  Headless page(1280, 800);
  page.load_file("lessons/self-attention.md");
  page.frames(5);
  CanvasDamage damage;
  CHECK(same(damage.changed(*ImGui::GetDrawData(), 1280, 800), PixelRect{0, 0, 1280, 800}));
  page.frames(1);
  CHECK(damage.changed(*ImGui::GetDrawData(), 1280, 800).empty());  // a page at rest
  page.move(640, 400);
  page.wheel(-3);
  page.frames(30);  // the scroll glides, then settles
  CHECK(damage.changed(*ImGui::GetDrawData(), 1280, 800).area() > 1280LL * 800 / 2);
}

TEST_CASE("a new background (a theme) redraws the whole canvas, empty tiles too") {
  Headless page(800, 600);
  page.frames(1);
  CanvasDamage damage;
  const ImU32 light = IM_COL32(250, 250, 250, 255), dark = IM_COL32(20, 20, 20, 255);
  damage.changed(Frame(800, 600, two_rectangles(600)).data, 800, 600, light);
  CHECK(damage.changed(Frame(800, 600, two_rectangles(600)).data, 800, 600, light).empty());
  CHECK(same(damage.changed(Frame(800, 600, two_rectangles(600)).data, 800, 600, dark), PixelRect{0, 0, 800, 600}));
}

TEST_CASE("a partial redraw gives a command the very pixels a full redraw gives it, whatever its clip's fractions") {
  // #34: a header clipped at y = 640.5 lost its row 640 in a redraw of the tiles from 640 down
  // (the clip was cut to the area, then rounded), and showed a line through it until a scroll
  // redrew everything. Here a command's pixels, redrawn band by band of tiles (rows, then
  // columns), must add up to exactly its pixels in one full redraw.
  Headless page(800, 800);
  page.frames(1);
  using neuralpath::web::command_pixels;
  for (const float scale : {1.0f, 2.0f, 1.5f}) {
    CAPTURE(scale);
    const ImVec4 clips[] = {
        {10.25f, 100.5f, 300.75f, 320.25f}, {0.5f, 0.5f, 399.5f, 399.5f}, {33.7f, 31.9f, 64.1f, 96.6f}};
    for (const ImVec4& clip : clips) {
      CAPTURE(clip.w);
      Frame frame(
          400, 400,
          [&](ImDrawList& list) {
            list.PushClipRect({clip.x, clip.y}, {clip.z, clip.w});
            list.AddRectFilled({0, 0}, {400, 400}, red);
            list.PopClipRect();
          },
          scale);
      const ImDrawCmd* cmd = nullptr;
      for (const ImDrawCmd& c : frame.list->CmdBuffer)
        if (c.ClipRect.w == clip.w && c.ElemCount > 0) cmd = &c;
      REQUIRE(cmd != nullptr);
      const int size = static_cast<int>(400 * scale), tile = CanvasDamage::tile_size;
      const PixelRect whole = command_pixels(*cmd, frame.data, PixelRect{0, 0, size, size}, size, size);
      REQUIRE_FALSE(whole.empty());
      for (const bool rows : {true, false}) {
        CAPTURE(rows);
        std::vector<int> drawn(static_cast<std::size_t>(size), 0);  // how often each row (or column) was drawn
        for (int at = 0; at < size; at += tile) {
          const PixelRect band = rows ? PixelRect{0, at, size, std::min(size, at + tile)}
                                      : PixelRect{at, 0, std::min(size, at + tile), size};
          const PixelRect part = command_pixels(*cmd, frame.data, band, size, size);
          if (part.empty()) continue;
          CHECK((rows ? part.x0 == whole.x0 && part.x1 == whole.x1 : part.y0 == whole.y0 && part.y1 == whole.y1));
          for (int i = rows ? part.y0 : part.x0; i < (rows ? part.y1 : part.x1); ++i)
            ++drawn[static_cast<std::size_t>(i)];
        }
        for (int i = 0; i < size; ++i) {
          const bool in_whole = rows ? i >= whole.y0 && i < whole.y1 : i >= whole.x0 && i < whole.x1;
          CAPTURE(i);
          CHECK(drawn[static_cast<std::size_t>(i)] == (in_whole ? 1 : 0));
        }
      }
    }
  }
}
