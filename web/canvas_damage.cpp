// canvas_damage.cpp: the tiles a frame changes (canvas_damage.h).
#include "canvas_damage.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace neuralpath::web {

namespace {

constexpr std::uint64_t kEmptyTile = 1469598103934665603ull;  // FNV-1a's offset basis
constexpr std::uint64_t kPrime = 1099511628211ull;

void mix(std::uint64_t& h, std::uint64_t v) { h = (h ^ v) * kPrime; }

std::uint64_t bits_of(ImVec2 v) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

// A triangle's box. This file is built without auto-vectorisation (web/CMakeLists.txt): with
// it, Emscripten 3.1.6 miscomputed this arithmetic and the tiles missed every triangle.
float min3(float a, float b, float c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }
float max3(float a, float b, float c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

std::uint64_t position_of(ImVec2 p) {  // to 1/8 px (canvas_damage.h)
  return static_cast<std::uint64_t>(std::lround(p.x * 8)) << 32 | static_cast<std::uint32_t>(std::lround(p.y * 8));
}

}  // namespace

PixelRect command_pixels(const ImDrawCmd& cmd, const ImDrawData& data, const PixelRect& area, int width, int height) {
  const ImVec2 offset = data.DisplayPos, scale = data.FramebufferScale;
  const float x0 = std::max((cmd.ClipRect.x - offset.x) * scale.x, 0.0f);
  const float y0 = std::max((cmd.ClipRect.y - offset.y) * scale.y, 0.0f);
  const float x1 = std::min((cmd.ClipRect.z - offset.x) * scale.x, static_cast<float>(width));
  const float y1 = std::min((cmd.ClipRect.w - offset.y) * scale.y, static_cast<float>(height));
  if (!(x1 > x0 && y1 > y0)) return {};  // NaN too
  // glScissor(x, y, w, h) with y counted up from the bottom, each truncated, as the backend does.
  const int x = static_cast<int>(x0), w = static_cast<int>(x1 - x0);
  const int y = static_cast<int>(static_cast<float>(height) - y1), h = static_cast<int>(y1 - y0);
  const PixelRect r{std::max(x, area.x0), std::max(height - y - h, area.y0), std::min(x + w, area.x1),
                    std::min(height - y, area.y1)};
  return r.empty() ? PixelRect{} : r;
}

PixelRect CanvasDamage::changed(const ImDrawData& data, int width, int height, std::uint32_t background) {
  if (width <= 0 || height <= 0) return {};
  if (background != background_) {  // an empty tile shows the background: every tile changed
    background_ = background;
    known_ = false;
  }
  if (width != width_ || height != height_) {
    width_ = width;
    height_ = height;
    columns_ = (width + tile_size - 1) / tile_size;
    rows_ = (height + tile_size - 1) / tile_size;
    known_ = false;
  }
  const auto tiles = static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_);
  tiles_.assign(tiles, kEmptyTile);
  bool unknowable = false;
  add_triangles(data, unknowable);

  const PixelRect whole{0, 0, width, height};
  const bool compare = known_ && !unknowable && last_.size() == tiles;
  std::swap(tiles_, last_);
  known_ = !unknowable;
  if (!compare) return whole;

  // The bounding rectangle of the tiles that differ (last_ now holds this frame's hashes).
  int c0 = columns_, r0 = rows_, c1 = -1, r1 = -1;
  for (int row = 0; row < rows_; ++row)
    for (int column = 0; column < columns_; ++column) {
      const auto at =
          static_cast<std::size_t>(row) * static_cast<std::size_t>(columns_) + static_cast<std::size_t>(column);
      if (last_[at] == tiles_[at]) continue;
      c0 = std::min(c0, column);
      c1 = std::max(c1, column);
      r0 = std::min(r0, row);
      r1 = std::max(r1, row);
    }
  if (c1 < 0) return {};
  return {c0 * tile_size, r0 * tile_size, std::min(width, (c1 + 1) * tile_size),
          std::min(height, (r1 + 1) * tile_size)};
}

void CanvasDamage::add_triangles(const ImDrawData& data, bool& unknowable) {
  const ImVec2 offset = data.DisplayPos, scale = data.FramebufferScale;
  const float last_column = static_cast<float>(columns_ - 1), last_row = static_cast<float>(rows_ - 1);
  const auto framebuffer_width = static_cast<float>(width_), framebuffer_height = static_cast<float>(height_);
  for (int n = 0; n < data.CmdListsCount; ++n) {
    const ImDrawList& list = *data.CmdLists[n];
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback) {
        // ResetRenderState only sets GL state again; any other callback draws what we cannot see.
        if (cmd.UserCallback != ImDrawCallback_ResetRenderState) unknowable = true;
        continue;
      }
      // What every triangle of this command shares: its texture and its clip rectangle.
      std::uint64_t shared = kEmptyTile;
      mix(shared, reinterpret_cast<std::uintptr_t>(cmd.TextureId));
      mix(shared, bits_of({cmd.ClipRect.x, cmd.ClipRect.y}));
      mix(shared, bits_of({cmd.ClipRect.z, cmd.ClipRect.w}));
      const ImDrawIdx* index = list.IdxBuffer.Data + cmd.IdxOffset;
      for (unsigned int i = 0; i + 2 < cmd.ElemCount; i += 3) {
        const ImDrawVert& a = list.VtxBuffer[static_cast<int>(cmd.VtxOffset + index[i])];
        const ImDrawVert& b = list.VtxBuffer[static_cast<int>(cmd.VtxOffset + index[i + 1])];
        const ImDrawVert& c = list.VtxBuffer[static_cast<int>(cmd.VtxOffset + index[i + 2])];
        // The triangle's box, clipped as the renderer's scissor clips it, in framebuffer pixels,
        // one pixel wider each way (a pixel is drawn when its centre is inside).
        const float x0 = (std::max(min3(a.pos.x, b.pos.x, c.pos.x), cmd.ClipRect.x) - offset.x) * scale.x - 1;
        const float y0 = (std::max(min3(a.pos.y, b.pos.y, c.pos.y), cmd.ClipRect.y) - offset.y) * scale.y - 1;
        const float x1 = (std::min(max3(a.pos.x, b.pos.x, c.pos.x), cmd.ClipRect.z) - offset.x) * scale.x + 1;
        const float y1 = (std::min(max3(a.pos.y, b.pos.y, c.pos.y), cmd.ClipRect.w) - offset.y) * scale.y + 1;
        if (!(x1 > x0 + 2 && y1 > y0 + 2)) continue;  // clipped away (NaN too)
        if (x1 <= 0 || y1 <= 0 || x0 >= framebuffer_width || y0 >= framebuffer_height) continue;  // off the canvas
        const float size = tile_size;
        const int column0 = static_cast<int>(std::clamp(std::floor(x0 / size), 0.f, last_column));
        const int column1 = static_cast<int>(std::clamp(std::floor(x1 / size), 0.f, last_column));
        const int row0 = static_cast<int>(std::clamp(std::floor(y0 / size), 0.f, last_row));
        const int row1 = static_cast<int>(std::clamp(std::floor(y1 / size), 0.f, last_row));
        std::uint64_t h = shared;
        for (const ImDrawVert* v : {&a, &b, &c}) {
          mix(h, position_of(v->pos));
          mix(h, bits_of(v->uv));
          mix(h, v->col);
        }
        for (int row = row0; row <= row1; ++row) {
          std::uint64_t* line = tiles_.data() + static_cast<std::size_t>(row) * static_cast<std::size_t>(columns_);
          for (int column = column0; column <= column1; ++column) mix(line[column], h);
        }
      }
    }
  }
}

}  // namespace neuralpath::web
