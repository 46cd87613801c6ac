// json_io.h: Eigen matrices <-> nlohmann::json for the CLI (engine/core itself knows no JSON).
//
// Numbers are written as the shortest decimal that reads back as the same float32 ("0.1",
// not "0.10000000149011612"). JSON has no infinity: a -∞ (a masked score) is written as null.
#pragma once

#include "engine/core/tensor.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace neuralpath::cli {

using Json = nlohmann::json;

Json number_json(float value);      // shortest round-trip; non-finite -> null
Json matrix_json(const Matrix& m);  // [[...], ...] one array per row
Json vector_json(const Vector& v);  // [...]

// Read `value` as a [rows][cols] matrix of finite float32 numbers. `name` is how error
// messages call it ("q", "q[1]"). Throws InputError: not an array, empty, ragged rows, a
// non-number, or a number that is not finite in float32 (e.g. 1e39).
Matrix matrix_from_json(const Json& value, const std::string& name);

// true when `value` looks like [H][T][d] (an array whose first element is an array of arrays).
bool is_rank3(const Json& value);

}  // namespace neuralpath::cli
