// tensor.h: the matrix and vector types every engine/core function speaks.
//
// Row-major so that row i of a [T][d] matrix is token i's vector, exactly as the lessons draw
// it (one row per token), and so that a Matrix maps 1:1 onto nested JSON arrays.
#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace neuralpath {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXf;  // a column vector; one token's row is Matrix::row(i)
using MatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;  // reference path
using Index = Eigen::Index;

}  // namespace neuralpath
