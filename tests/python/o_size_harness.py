"""Test O's size, with a generator and a fit written here from the model (docs/method.md §4
and §7), independent of the crate: numpy only, every panel's null draws fitted at once.

Model: t ~ N(0, 1), c ~ N(0, 0.8), six judges J_j = t + c + e_j (Var e_j = 1), anchors
A_k = t + (b_k/0.8) c + u_k with SD(A_k) from SA and b_k = rho_k SD(A_k) sqrt(0.8).
Statistic: the free-scale joint fit's unweighted misfit on q_k = SD(A_k) sum_j lam_j r_jk /
sum_j lam_j^2 (lam: the judges' one-factor ULS loadings) and the anchor covariances P_kl.
Nulls: `plug` (the fitted model, as the battery draws it), `mix` (each draw from the model
refitted to a first-level draw: the null mixed over the parameters' sampling error), `fdb`
(Davidson and MacKinnon's fast double bootstrap on the same two levels). `browne`: Browne's
residual statistic (what Test O reads now) against its plug-in null and against chi-square,
with the unweighted misfit's plug-in rate on the same panels and draws; `chi`: Browne's
statistic against chi-square alone (no null draws: seconds per cell). OH_H=h adds a second
factor loading (h, h/2, 0, ...) on the anchors (power).

    python tests/python/o_size_harness.py 0.3,0.7,0.5,0.2 1000 400 200 plug
    python tests/python/o_size_harness.py 0.3,0.7,0.5,0.2 1000 1000 0 chi
    python tests/python/o_size_harness.py fixture tests/fixtures/o_null_panel_m4.csv

`fixture` fits one covariance matrix (CSV, six judges first) in the crate's units (anchors
divided by their mean variance, as the crate's anchor-block fit is) and prints sigma_t^2,
sigma_c^2, beta (back in the data's units) and Browne's statistic per unit N: the expected
values of the crate's cross-check test.

prints the rate at which the statistic exceeds its panel's threshold, the thresholds' spread
over panels (log SD), their correlation with the statistic, the statistic's own 95 % point
over the panels and the thresholds' median. Not a pytest module: minutes of CPU per cell.
"""

import os
import sys

import numpy as np

ST, SC, P = 1.0, 0.8, 6
SA = [0.5, 0.6, 0.7, 0.55, 0.65, 0.6]


def population(rho):
    m = len(rho)
    sa = np.array(SA[:m])
    b = np.array(rho) * sa * np.sqrt(SC)
    L = np.vstack([np.ones((P, 2)), np.column_stack([np.ones(m), b / SC])])
    res = np.concatenate([np.ones(P), sa**2 - b**2 / SC])
    # OH_H: a second factor loading (h, h/2, 0, ...) on the anchors only (Test O's target).
    h = float(os.environ.get("OH_H", "0"))
    H = np.concatenate([np.zeros(P), h * np.maximum(1 - np.arange(m) / 2, 0)])
    return L @ np.diag([ST, SC]) @ L.T + np.diag(res) + np.outer(H, H), b


def draws(C, n, k, rng):
    """k sample covariances of n rows of N(0, C)."""
    Lc = np.linalg.cholesky(C)
    X = rng.standard_normal((k, n, len(C))) @ Lc.T
    X -= X.mean(axis=1, keepdims=True)
    return np.einsum("kni,knj->kij", X, X) / (n - 1)


def one_factor(R, iters=300):
    k, p, _ = R.shape
    lam = np.sqrt(np.clip((R.sum(axis=2) - 1) / (p - 1), 1e-4, 1))
    Rw = R.copy()
    idx = np.arange(p)
    for _ in range(iters):
        Rw[:, idx, idx] = lam**2
        w, v = np.linalg.eigh(Rw)
        new = v[:, :, -1] * np.sqrt(np.clip(w[:, -1:], 1e-12, None))
        new *= np.sign(new.sum(axis=1, keepdims=True))
        done = np.max(np.abs(new - lam)) < 1e-11
        lam = new
        if done:
            break
    return lam


def moments(S, p):
    d = np.sqrt(np.diagonal(S, axis1=1, axis2=2))
    R = S / (d[:, :, None] * d[:, None, :])
    lam = one_factor(R[:, :p, :p])
    q = (
        d[:, p:]
        * np.einsum("kj,kja->ka", lam, R[:, :p, p:])
        / np.sum(lam**2, axis=1)[:, None]
    )
    return lam, q, S[:, p:, p:]


def rj(th, q, Pa, iu):
    """Residuals (k, r) and Jacobian (k, r, m+2)."""
    k, m = q.shape
    st, sc = np.exp(th[:, 0]), np.exp(th[:, 1])
    b = th[:, 2:]
    K = st + sc
    rk = np.sqrt(K)
    e1 = q - (st[:, None] + b) / rk[:, None]
    bb = b[:, :, None] * b[:, None, :]
    e2 = Pa[:, iu[0], iu[1]] - st[:, None] - bb[:, iu[0], iu[1]] / sc[:, None]
    r1, r2 = m, len(iu[0])
    J = np.zeros((k, r1 + r2, m + 2))
    dsc = (st[:, None] + b) / (2 * K * rk)[:, None]
    J[:, :r1, 0] = (-1 / rk[:, None] + dsc) * st[:, None]
    J[:, :r1, 1] = dsc * sc[:, None]
    J[:, np.arange(m), 2 + np.arange(m)] = -1 / rk[:, None]
    J[:, r1:, 0] = -st[:, None]
    J[:, r1:, 1] = bb[:, iu[0], iu[1]] / sc[:, None]
    rows = r1 + np.arange(r2)
    J[:, rows, 2 + iu[0]] = -b[:, iu[1]] / sc[:, None]
    J[:, rows, 2 + iu[1]] = -b[:, iu[0]] / sc[:, None]
    return np.concatenate([e1, e2], axis=1), J


def lm(th, q, Pa, iters=200):
    m = q.shape[1]
    iu = np.triu_indices(m, 1)
    mu = np.full(len(th), 1e-3)
    e, J = rj(th, q, Pa, iu)
    f = np.sum(e**2, axis=1)
    for _ in range(iters):
        A = np.einsum("kri,krj->kij", J, J)
        g = np.einsum("kri,kr->ki", J, e)
        Ad = A + mu[:, None, None] * (
            np.diagonal(A, axis1=1, axis2=2)[:, :, None] * np.eye(m + 2)
            + 1e-12 * np.eye(m + 2)
        )
        step = -np.linalg.solve(Ad, g[:, :, None])[:, :, 0]
        new = th + step
        new[:, :2] = np.clip(new[:, :2], -12, 6)
        e2, J2 = rj(new, q, Pa, iu)
        f2 = np.sum(e2**2, axis=1)
        ok = f2 < f
        th = np.where(ok[:, None], new, th)
        e = np.where(ok[:, None], e2, e)
        J = np.where(ok[:, None, None], J2, J)
        f = np.where(ok, f2, f)
        mu = np.where(ok, mu / 3, mu * 4)
        if np.all(mu > 1e12) or np.max(np.abs(step)) < 1e-13:
            break
    return th, f


def fit(S, p, starts):
    """Best of several starts (each a (k, m+2) array)."""
    lam, q, Pa = moments(S, p)
    best_th, best_f = None, None
    for s in starts:
        th, f = lm(s.copy(), q, Pa)
        if best_f is None:
            best_th, best_f = th, f
        else:
            better = f < best_f
            best_th = np.where(better[:, None], th, best_th)
            best_f = np.where(better, f, best_f)
    return best_th, best_f, lam, np.diagonal(Pa, axis1=1, axis2=2)


def grid_starts(S, p):
    lam, q, Pa = moments(S, p)
    vmax = np.max(np.diagonal(Pa, axis1=1, axis2=2), axis=1)
    out = []
    for a in (0.2, 0.5, 0.8):
        for c in (0.05, 0.3, 1.0, 3.0):
            st, sc = a * vmax, c * vmax
            b = q * np.sqrt(st + sc)[:, None] - st[:, None]
            out.append(np.column_stack([np.log(st), np.log(sc), b]))
    return out


def model_cov(th, lam, V):
    k, p = lam.shape
    m = V.shape[1]
    st, sc = np.exp(th[:, 0]), np.exp(th[:, 1])
    b = th[:, 2:]
    rk = np.sqrt(st + sc)
    C = np.zeros((k, p + m, p + m))
    C[:, :p, :p] = lam[:, :, None] * lam[:, None, :]
    C[:, np.arange(p), np.arange(p)] = 1
    C[:, :p, p:] = lam[:, :, None] * ((st[:, None] + b) / rk[:, None])[:, None, :]
    C[:, p:, :p] = np.transpose(C[:, :p, p:], (0, 2, 1))
    C[:, p:, p:] = st[:, None, None] + b[:, :, None] * b[:, None, :] / sc[:, None, None]
    C[:, p + np.arange(m), p + np.arange(m)] = V
    return C


def valid(C, lam):
    return np.all(np.abs(lam) < 1, axis=1) & np.all(np.linalg.eigvalsh(C) > 0, axis=1)


def browne(S, th, p):
    """Browne's residual statistic per panel (k,): r'(G^-1 - G^-1 D (D'G^-1 D)^-1 D'G^-1) r with
    G the normal-theory covariance of the moments (q, P_kl) by the delta method through the
    judges' one-factor fit (implicit function), D the model's Jacobian; per unit N."""
    k, n, _ = S.shape
    m = n - p
    lam, q, Pa = moments(S, p)
    iu = np.triu_indices(m, 1)
    e, J = rj(th, q, Pa, iu)
    d = np.sqrt(np.diagonal(S, axis1=1, axis2=2))
    R = S / (d[:, :, None] * d[:, None, :])
    vi, vj = np.triu_indices(n)
    ns = len(vi)
    dS = np.zeros((ns, n, n))
    dS[np.arange(ns), vi, vj] = 1
    dS[np.arange(ns), vj, vi] = 1
    RJ = R[:, :p, :p]
    Sd = np.diagonal(S, axis1=1, axis2=2)
    dSJ = dS[None, :, :p, :p] / (d[:, None, :p, None] * d[:, None, None, :p])
    dd = np.diagonal(dS, axis1=1, axis2=2)[None] / Sd[:, None, :]  # (k, ns, n)
    dRJ = dSJ - RJ[:, None] / 2 * (dd[:, :, :p, None] + dd[:, :, None, :p])
    dRJ[:, :, np.arange(p), np.arange(p)] = 0
    A = RJ - 2 * lam[:, :, None] * lam[:, None, :]
    ll = np.sum(lam**2, axis=1)
    A[:, np.arange(p), np.arange(p)] = -(ll[:, None] - lam**2)
    rhs = np.einsum("ksij,kj->kis", dRJ, lam)
    dlam = -np.linalg.solve(A, rhs)  # (k, p, ns)
    C = S[:, :p, p:] / d[:, :p, None]  # (k, p, m)
    u = np.einsum("kj,kja->ka", lam, C)
    du = (
        np.einsum("kjs,kja->kas", dlam, C)
        + np.einsum("kj,sja->kas", lam / d[:, :p], dS[:, :p, p:])
        - np.einsum("kj,kja,ksj->kas", lam / 2, C, dd[:, :, :p])
    )
    dw = 2 * np.einsum("kj,kjs->ks", lam, dlam)
    dq = (
        du / ll[:, None, None] - u[:, :, None] * dw[:, None, :] / ll[:, None, None] ** 2
    )
    dP = np.broadcast_to(dS[:, p:, p:][:, iu[0], iu[1]].T[None], (k, len(iu[0]), ns))
    G = np.concatenate([dq, dP], axis=1)
    GS = (
        S[:, vi[:, None], vi[None, :]] * S[:, vj[:, None], vj[None, :]]
        + S[:, vi[:, None], vj[None, :]] * S[:, vj[:, None], vi[None, :]]
    )
    Gam = G @ GS @ np.transpose(G, (0, 2, 1))
    Gi = np.linalg.inv(Gam)
    GiD = Gi @ J
    M = Gi - GiD @ np.linalg.solve(
        np.transpose(J, (0, 2, 1)) @ GiD, np.transpose(GiD, (0, 2, 1))
    )
    return np.einsum("kr,krs,ks->k", e, M, e)


# chi-square 95 % points at the model's degrees of freedom m(m - 1)/2 - 2, by anchor count m.
CHI95 = {3: 3.841459, 4: 9.487729, 5: 18.307038, 6: 22.362032}


def fixture(path):
    """The fit and Browne's statistic of one covariance matrix, in the crate's anchor units."""
    S = np.loadtxt(path, delimiter=",")[None]
    d = np.ones(S.shape[1])
    u = np.mean(np.diagonal(S[0])[P:])
    d[P:] = 1 / np.sqrt(u)
    Su = S * d[None, :, None] * d[None, None, :]
    th, f, _, _ = fit(Su, P, grid_starts(Su, P))
    t = browne(Su, th, P)[0]
    print(
        f"sigma_t2 {float(np.exp(th[0, 0]) * u)!r}, sigma_c2 {float(np.exp(th[0, 1]) * u)!r}"
    )
    print("beta", ", ".join(repr(float(b * u)) for b in th[0, 2:]))
    print(f"misfit (unit-scaled) {float(f[0])!r}, browne per unit N {float(t)!r}")


def main():
    """argv: rho (comma-separated), N, panels, null draws, null (plug | mix | fdb), seed."""
    if sys.argv[1] == "fixture":
        fixture(sys.argv[2])
        return
    rho = [float(x) for x in sys.argv[1].split(",")]
    n, panels, D = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    mode = sys.argv[5] if len(sys.argv) > 5 else "plug"
    m = len(rho)
    Sig, b = population(rho)
    rng = np.random.default_rng(
        int(sys.argv[6]) if len(sys.argv) > 6 else 11 + n + 7 * m
    )
    Sobs = draws(Sig, n, panels, rng)
    th0, f0, lam0, V0 = fit(Sobs, P, grid_starts(Sobs, P))
    C0 = model_cov(th0, lam0, V0)
    ok0 = valid(C0, lam0)
    T0 = browne(Sobs, th0, P) * (n - 1)
    rows = []
    if mode == "chi":
        # Browne's statistic against its chi-square alone: no null draws.
        t = T0[ok0]
        k = len(t)
        fired = np.mean(t > CHI95[m])
        df = m * (m - 1) / 2 - 2
        print(
            f"m={m} rho={rho} N={n} panels={k} chi-square({df:.0f}) reference: fires {fired:.3f} ± "
            f"{np.sqrt(fired * (1 - fired) / k):.3f}; mean {t.mean():.3f} (df {df:.0f}), var {t.var():.3f} (2 df {2 * df:.0f})",
            flush=True,
        )
        return
    for i in np.nonzero(ok0)[0]:
        C = C0[i]
        start = np.repeat(th0[i][None, :], D, axis=0)
        if mode in ("mix", "fdb"):
            # Each draw's own null: the model refitted to a first-level draw of the plug-in.
            S1 = draws(C, n, D, rng)
            th1, f1, lam1, V1 = fit(S1, P, [start])
            C1 = model_cov(th1, lam1, V1)
            good = valid(C1, lam1)
            C1[~good] = C
            Lc = np.linalg.cholesky(C1)
            X = np.einsum("kni,kji->knj", rng.standard_normal((D, n, P + m)), Lc)
            X -= X.mean(axis=1, keepdims=True)
            S2 = np.einsum("kni,knj->kij", X, X) / (n - 1)
            start = th1
        else:
            S2 = draws(C, n, D, rng)
        thd, fd, _, _ = fit(S2, P, [start, start * 0 + th0[i]])
        if mode == "browne":
            # Browne's residual statistic, observed and on the plug-in null's draws; the
            # second column of `rows` is its plug-in threshold, the third whether it passes its chi-square 95 % point, the fourth the unweighted misfit against its own plug-in null.
            t_obs = T0[i]
            td = browne(S2, thd, P) * (n - 1)
            rows.append(
                (
                    t_obs,
                    np.quantile(np.sort(td), 0.95),
                    t_obs > CHI95[m],
                    f0[i] > np.quantile(np.sort(fd), 0.95),
                )
            )
            continue
        if mode == "fdb":
            # Fast double bootstrap (Davidson & MacKinnon 2007): read the first level's
            # quantile at 1 - a, a = the share of second-level draws above its 95 % point.
            first = np.sort(f1)
            a = np.mean(fd > np.quantile(first, 0.95))
            rows.append((f0[i], np.quantile(first, 1 - a)))
        else:
            # plug: the fitted model's null; mix: the null mixed over refitted parameters.
            rows.append((f0[i], np.quantile(np.sort(fd), 0.95)))
    a = np.array(rows)
    k = len(a)
    fired = np.mean(a[:, 0] > a[:, 1])
    se = np.sqrt(fired * (1 - fired) / k)
    lt = np.log(a[:, 1])
    if mode == "browne":
        chi = np.mean(a[:, 2])
        print(
            f"browne chi-square reference: fires {chi:.3f} ± {np.sqrt(chi * (1 - chi) / k):.3f}"
        )
        old = np.mean(a[:, 3])
        print(
            f"unweighted misfit, plug-in null, same panels and draws: fires {old:.3f} ± {np.sqrt(old * (1 - old) / k):.3f}"
        )
    print(
        f"m={m} rho={rho} N={n} panels={k} D={D} null={mode}: fires {fired:.3f} ± {se:.3f}; "
        f"threshold log-SD {lt.std():.3f}; corr(ln S, ln threshold) {np.corrcoef(np.log(a[:, 0]), lt)[0, 1]:.2f}; "
        f"S's own 95 % point {np.quantile(a[:, 0], 0.95):.3e}, threshold median {np.median(a[:, 1]):.3e}",
        flush=True,
    )


main()
