// SPDX-License-Identifier: BSD-2-Clause-Patent
// The small dense linear algebra of SpEED-QA, in float, step for step as
// libvmaf's speed.c does it (so the eigenvalues and solutions round the same):
// eigenvalues of a symmetric matrix by Householder tridiagonalisation and
// implicit QR steps with Wilkinson shifts, and a linear solve by Householder QR
// and back substitution.
#pragma once

#include <vector>

namespace vmaf::speed {

// Eigenvalues of the symmetric n x n matrix `a` (row-major, not modified), in
// no particular order. Returns false if the iteration limit was reached (the
// values are then those of the last iteration).
bool symmetric_eigenvalues(const float *a, int n, float *eigenvalues);

// Solve A X = B for X (A: n x n, B and X: n x m, row-major). Returns false
// (X partly written) when a pivot of the triangular factor is below 1e-6 in
// magnitude.
class LinearSolver {
public:
    bool solve(const float *a, int n, const float *b, int m, float *x);

private:
    std::vector<float> a_, q_, r_, t1_, t2_, qb_;
};

}  // namespace vmaf::speed
