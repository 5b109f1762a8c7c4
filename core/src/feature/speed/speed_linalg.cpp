// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "feature/speed/speed_linalg.h"

#include <cmath>
#include <cstring>

#include "feature/speed/speed_kernel.h"
#include "feature/speed/speed_tables.h"

namespace vmaf::speed {

namespace {

// ---- Eigenvalues ----------------------------------------------------------

// Turn column `col` of `a` below row `start` into a Householder vector that
// annihilates a[start + 1 .. n - 1][col]: the column is scaled so that its
// implicit first element is 1, a[start][col] becomes beta. Returns tau (0 when
// nothing needs annihilating).
float householder_column(float *a, int n, int col, int start)
{
    if (n - start == 1) return 0.0f;
    float sum_sq = 0.0f;
    for (int i = start + 1; i < n; i++) sum_sq += a[i * n + col] * a[i * n + col];
    const float xnorm = norm_f(sum_sq);
    if (xnorm == 0.0f) return 0.0f;
    const float alpha = a[start * n + col];
    const float beta = -sign_of(alpha) * hypot_f(alpha, xnorm);
    const float tau = (beta - alpha) / beta;
    const float s = alpha - beta;
    if (s != 0.0f) {
        for (int i = start; i < n; i++) a[i * n + col] /= s;
        a[start * n + col] = beta;
    }
    return tau;
}

// Reduce the symmetric `a` (overwritten) to tridiagonal form: diagonal d,
// subdiagonal sd. v and x are scratch of n floats.
void tridiagonalize(float *a, int n, float *d, float *sd, float *v, float *x)
{
    for (int i = 0; i + 2 < n; i++) {
        const float tau = householder_column(a, n, i, i + 1);
        for (int j = i + 1; j < n; j++) v[j] = a[j * n + i];
        if (tau == 0.0f) continue;
        v[i + 1] = 1.0f;
        const int lo = i + 1;
        // x = tau A v over the trailing block.
        for (int r = lo; r < n; r++) {
            x[r] = 0.0f;
            for (int c = lo; c < n; c++) x[r] += tau * a[r * n + c] * v[c];
        }
        // x -= (tau / 2) (x . v) v
        float xv = 0.0f;
        for (int r = lo; r < n; r++) xv += x[r] * v[r];
        const float alpha = float(-0.5 * double(tau) * double(xv));
        for (int r = lo; r < n; r++) x[r] += alpha * v[r];
        // A -= x v' + v x'
        for (int r = lo; r < n; r++)
            for (int c = lo; c < n; c++) a[r * n + c] -= x[r] * v[c] + v[r] * x[c];
    }
    for (int i = 0; i < n; i++) d[i] = a[i * n + i];
    for (int i = 0; i + 1 < n; i++) sd[i] = a[(i + 1) * n + i];
}

void chop_negligible(float *d, float *sd, int n)
{
    for (int i = 0; i + 1 < n; i++)
        if (negligible(sd[i], d[i], d[i + 1])) sd[i] = 0.0f;
}

// The eigenvalue of the trailing 2x2 block closer to its last diagonal element
// (the Wilkinson shift).
float wilkinson_shift(const float *d, const float *sd, int n)
{
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = float(double(ta - tb) / 2.0);
    if (dt > 0) return tb - tab * (tab / (dt + hypot_f(dt, tab)));
    if (dt == 0) return tb - std::fabs(tab);
    return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

// The 2x2 congruence G' T G of rotation (c, s) on diagonal p, q and the
// off-diagonal between them.
struct Rotated {
    float ap, bp, aq;
};
inline Rotated rotate(float c, float s, float ap, float bp, float aq)
{
    Rotated r;
    r.ap = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    r.bp = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    r.aq = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    return r;
}

// One implicit symmetric QR step with a Wilkinson shift on an unreduced
// tridiagonal block of n >= 2 (chasing the bulge down).
void qr_step(float *d, float *sd, int n)
{
    float mu = wilkinson_shift(d, sd, n);
    if (kEps * double(std::fabs(mu)) > double(std::fabs(d[0]) + std::fabs(sd[0]))) mu = 0;

    float x = d[0] - mu;
    float z = sd[0];
    float ap = d[0], bp = sd[0], aq = d[1];

    if (n == 2) {
        float c, s;
        givens(x, z, &c, &s);
        const Rotated r = rotate(c, s, ap, bp, aq);
        d[0] = r.ap;
        sd[0] = r.bp;
        d[1] = r.aq;
        return;
    }

    float bq = sd[1];
    float bk = 0, zk = 0;
    for (int k = 0; k < n - 1; k++) {
        float c, s;
        givens(x, z, &c, &s);
        const float bk_prev = c * bk - s * zk;
        const Rotated r = rotate(c, s, ap, bp, aq);
        const float zp = -s * bq;
        const float bq_new = c * bq;

        const float ak = r.ap;
        bk = r.bp;
        zk = zp;
        ap = r.aq;
        bp = bq_new;
        if (k < n - 2) aq = d[k + 2];
        if (k < n - 3) bq = sd[k + 2];

        d[k] = ak;
        if (k > 0) sd[k - 1] = bk_prev;
        if (k < n - 2) sd[k + 1] = bp;
        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

// ---- Linear solve ---------------------------------------------------------

// dst (r x c) = x (r x k) * y (k x c), each element summed over k in order
// from 0.
void mat_mul(float *dst, const float *x, const float *y, int r, int k, int c)
{
    for (int i = 0; i < r * c; i++) dst[i] = 0.0f;
    for (int i = 0; i < r; i++)
        for (int t = 0; t < k; t++) {
            const float xv = x[i * k + t];
            const float *yr = y + t * c;
            float *dr = dst + i * c;
            for (int j = 0; j < c; j++) dr[j] += xv * yr[j];
        }
}

float vector_norm(const float *v, int n)
{
    float sum = 0.0f;
    for (int i = 0; i < n; i++) sum += v[i] * v[i];
    return norm_f(sum);
}

}  // namespace

bool symmetric_eigenvalues(const float *a_in, int n, float *eigenvalues)
{
    if (n == 1) {
        eigenvalues[0] = a_in[0];
        return true;
    }
    std::vector<float> buf(std::size_t(n) * n + 4 * std::size_t(n));
    float *a = buf.data();
    float *d = a + n * n;
    float *sd = d + n;
    float *v = sd + n;
    float *x = v + n;
    std::memcpy(a, a_in, sizeof(float) * std::size_t(n) * n);
    tridiagonalize(a, n, d, sd, v, x);

    chop_negligible(d, sd, n);
    int b = n - 1;
    int iter = 0;
    while (b > 0 && iter < kMaxEigenIterations) {
        if (sd[b - 1] == 0.0f) {
            b--;
            continue;
        }
        // The largest unreduced block ending at b.
        int top = b - 1;
        while (top > 0 && sd[top - 1] != 0.0f) top--;
        const int len = b - top + 1;
        qr_step(d + top, sd + top, len);
        chop_negligible(d + top, sd + top, len);
        iter++;
    }
    for (int i = 0; i < n; i++) eigenvalues[i] = d[i];
    return iter < kMaxEigenIterations;
}

bool LinearSolver::solve(const float *a_in, int n, const float *b, int m, float *x)
{
    const std::size_t nn = std::size_t(n) * n;
    a_.assign(a_in, a_in + nn);
    q_.resize(nn);
    r_.resize(nn);
    t1_.resize(nn);  // the reflector
    t2_.resize(nn);  // the matrix being reduced
    qb_.resize(std::size_t(n) * m);
    float *a = a_.data(), *q = q_.data(), *r = r_.data(), *h = t1_.data(), *z = t2_.data();

    // Householder QR: Q accumulates H_k ... H_1, z is reduced column by column.
    // The reflection's sign follows the diagonal of the original A. r doubles
    // as scratch (the reflector vector, then the products) until the end.
    std::memcpy(z, a, sizeof(float) * nn);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) q[i * n + j] = i == j ? 1.0f : 0.0f;
    for (int k = 0; k + 1 < n; k++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (i < k || j < k) z[i * n + j] = i == j ? 1.0f : 0.0f;
        float *vec = r;
        for (int i = 0; i < n; i++) vec[i] = z[i * n + k];
        const float norm = vector_norm(vec, n);
        vec[k] += sign_of(a[k * n + k]) * norm;
        const float len = vector_norm(vec, n);
        for (int i = 0; i < n; i++) vec[i] = vec[i] / len;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) h[i * n + j] = -2 * vec[i] * vec[j];
        for (int i = 0; i < n; i++) h[i * n + i] += 1;

        mat_mul(r, h, z, n, n, n);
        std::memcpy(z, r, sizeof(float) * nn);
        mat_mul(r, h, q, n, n, n);
        std::memcpy(q, r, sizeof(float) * nn);
    }
    mat_mul(r, q, a, n, n, n);

    // R X = (H_k ... H_1) B, by back substitution.
    mat_mul(qb_.data(), q, b, n, n, m);
    const float *qb = qb_.data();
    for (int i = n - 1; i >= 0; i--) {
        const float pivot = r[i * n + i];
        if (double(std::fabs(pivot)) < kEps) return false;
        for (int j = 0; j < m; j++) {
            float t = qb[i * m + j];
            for (int k = i + 1; k < n; k++) t -= x[k * m + j] * r[i * n + k];
            x[i * m + j] = t / pivot;
        }
    }
    return true;
}

}  // namespace vmaf::speed
