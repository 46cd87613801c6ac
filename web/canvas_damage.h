// canvas_damage.h: which part of the canvas a frame changes, so that only that part is drawn.
//
// In software WebGL (SwiftShader, this project's headless Chromium; also phones without a GPU
// worth the name) a frame costs about what its pixels cost: drawing the whole 1440x900 lesson
// took 34-42 ms of the GPU process's CPU per frame, too much for 30 frames per second while the
// train widget trains (#10), though only the widget's card changes. So each frame's draw data
// is cut into tiles of the framebuffer: every triangle adds a hash of itself (vertices, texture,
// clip) to each tile its bounding box touches, in drawing order. A tile whose hash equals last
// frame's shows the same pixels (the same triangles, drawn in the same order, over the same
// clear); the frame redraws the bounding rectangle of the tiles that differ, and the canvas
// (a context with preserveDrawingBuffer, web/main.cpp) keeps the rest.
//
// Positions count to 1/8 px, as the idle gate always has: an easing's last sub-pixel creep
// counts as still.
#pragma once

#include <cstdint>
#include <vector>

struct ImDrawData;
struct ImDrawCmd;

namespace neuralpath::web {

// Framebuffer pixels, y down from the top, [x0, x1) x [y0, y1).
struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  long long area() const { return empty() ? 0 : static_cast<long long>(x1 - x0) * (y1 - y0); }
};

// The pixels of a width x height framebuffer in which a draw command may draw when `area` is
// drawn again (the renderer's scissor): its clip rectangle rounded as imgui_impl_opengl3 rounds
// it for glScissor when the whole canvas is drawn, then cut to `area`. So a partial redraw gives
// a command exactly the pixels a full redraw gives it there (#34: cut to the area before
// rounding, a clip rectangle ending at y = 640.5 lost row 640 in a redraw starting at 640, and
// a matrix's header showed a line struck through it until the next scroll).
PixelRect command_pixels(const ImDrawCmd& cmd, const ImDrawData& data, const PixelRect& area, int width, int height);

class CanvasDamage {
 public:
  static constexpr int tile_size = 32;  // pixels: small enough to follow a widget's edge, few enough to compare

  // The part of a width x height framebuffer in which this frame's draw data, over a canvas
  // cleared to `background`, may show other pixels than the last frame's: empty when the frame
  // looks the same; the whole framebuffer on the first frame, after a resize, after forget(),
  // when the background changes (a theme), or when the draw data has a callback whose drawing
  // cannot be known.
  PixelRect changed(const ImDrawData& data, int width, int height, std::uint32_t background = 0);

  // What the canvas shows is unknown (a lost context, a texture made again): the next frame is
  // drawn whole.
  void forget() { known_ = false; }

 private:
  void add_triangles(const ImDrawData& data, bool& unknowable);

  int width_ = 0, height_ = 0, columns_ = 0, rows_ = 0;
  bool known_ = false;                // last_ describes what the canvas shows
  std::uint32_t background_ = 0;      // the clear colour under last_
  std::vector<std::uint64_t> tiles_;  // this frame's hash per tile, row by row
  std::vector<std::uint64_t> last_;   // the last frame's
};

}  // namespace neuralpath::web
