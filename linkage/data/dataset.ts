/**
 * Builds a benchmark data set with ground truth: entities → records → a corruption log per record (field, operator,
 * layer, before, after). Deterministic for (preset, size, seed, kinds).
 * Source: linkage/README.md, "Data".
 *
 * Knobs (defaults from the study): pDuplicated 0.12 (share of entities with ≥ 2 records); extra records for a
 * duplicated entity P(1..5) = 0.70, 0.18, 0.07, 0.03, 0.02. Presets: clean = formatting (L2) only; realistic = the
 * defaults; hard = L3 ×2, L1 ×1.5, hard negatives ×3.
 */
import { seededFaker } from '../../generators/seed.js';
import { Rng } from './edits.js';
import { ENTITY_BUILDERS, type Entity, type EntityKind, type Fields } from './entities.js';
import { HARD_NEGATIVE_KINDS, MEAN_GROUP_SIZE } from './hard-negatives.js';
import { type Layer, OPERATORS, type OpContext } from './operators.js';

export type PresetName = 'clean' | 'realistic' | 'hard';

export interface Preset {
  name: PresetName;
  /** Multiplier of every operator probability, per layer (0 switches a layer off). */
  layers: Record<Layer, number>;
  /** Multiplier of the hard-negative shares. */
  hardNegatives: number;
  pDuplicated: number;
  extraRecords: number[];
}

const EXTRA = [0.7, 0.18, 0.07, 0.03, 0.02];
export const PRESETS: Record<PresetName, Preset> = {
  clean: {
    name: 'clean',
    layers: { L1: 0, L2: 1, L3: 0, completeness: 0 },
    hardNegatives: 1,
    pDuplicated: 0.12,
    extraRecords: EXTRA,
  },
  realistic: {
    name: 'realistic',
    layers: { L1: 1, L2: 1, L3: 1, completeness: 1 },
    hardNegatives: 1,
    pDuplicated: 0.12,
    extraRecords: EXTRA,
  },
  hard: {
    name: 'hard',
    layers: { L1: 1.5, L2: 1, L3: 2, completeness: 1 },
    hardNegatives: 3,
    pDuplicated: 0.12,
    extraRecords: EXTRA,
  },
};

/** One entry of a record's corruption log. */
export interface CorruptionEntry {
  field: string;
  operator: string;
  layer: Layer;
  before: string;
  after: string;
}

export interface LinkageRecord {
  /** Stable id within the data set, e.g. `r000042` (never sent to the API). */
  id: string;
  /** Entity number (index into Dataset.entities). */
  entity: number;
  kind: EntityKind;
  /** 0 for the entity's first record. */
  index: number;
  fields: Fields;
  ops: CorruptionEntry[];
}

export interface DatasetOptions {
  preset: PresetName;
  /** Number of entities (hard-negative partners included). */
  size: number;
  seed: number;
  /** Entity kinds to draw, with weights (e.g. {practitioner: 0.7, facility: 0.3}). */
  kinds: Partial<Record<EntityKind, number>>;
  /** Records whose search candidates are read: number of entities sampled (one record each). */
  searchSample?: number;
}

export interface Dataset {
  /** How it was built; `truth-set` for a labelled set loaded from files (linkage/truth/truth-set.ts). */
  options: Omit<Required<DatasetOptions>, 'preset'> & { preset: PresetName | 'truth-set' };
  entities: Entity[];
  /** Records in posting order. */
  records: LinkageRecord[];
  /** Ids of the sampled query records (at most one per entity; posted last, searched first). */
  searchSample: string[];
}

/** Applies the corruption layers to one record of `entity`. */
function corrupt(
  rng: Rng,
  ctx: Omit<OpContext, 'fields' | 'rng'>,
  preset: Preset,
  additional: boolean,
): { fields: Fields; ops: CorruptionEntry[] } {
  const fields: Fields = { ...ctx.entity.fields };
  const ops: CorruptionEntry[] = [];
  const touched = new Set<string>();
  const operators = OPERATORS[ctx.entity.kind];
  for (const layer of ['L1', 'L3', 'completeness', 'L2'] as const) {
    if (!additional && (layer === 'L1' || layer === 'L3')) continue;
    const k = preset.layers[layer];
    if (!k) continue;
    for (const op of operators) {
      if (op.layer !== layer) continue;
      if (!rng.chance(Math.min(0.95, op.p * k))) continue;
      if (layer !== 'L2' && op.fields.some((f) => touched.has(f))) continue;
      const changes = op.apply({ ...ctx, rng, fields });
      if (!changes) continue;
      for (const [field, after] of Object.entries(changes)) {
        const before = fields[field] ?? '';
        if (before === after) continue;
        ops.push({ field, operator: op.name, layer, before, after });
        fields[field] = after;
        if (layer !== 'L2') touched.add(field);
      }
    }
  }
  return { fields, ops };
}

/**
 * The search sample: the last record of `count` entities, about 70% of them entities with duplicates (where the true
 * pairs are), the rest singletons. `byEntity[e]` lists entity e's records.
 */
export function sampleQueries<R>(rng: Rng, byEntity: R[][], count: number): Set<R> {
  const ids = byEntity.map((_, e) => e);
  const duplicated = rng.shuffle(ids.filter((e) => byEntity[e]!.length > 1));
  const single = rng.shuffle(ids.filter((e) => byEntity[e]!.length === 1));
  const wantDup = Math.min(duplicated.length, Math.round(count * 0.7));
  const sampled = [...duplicated.slice(0, wantDup), ...single.slice(0, Math.min(single.length, count - wantDup))];
  return new Set(sampled.map((e) => byEntity[e]!.at(-1)!));
}

/** Builds the data set. Same options → same entities, records, logs and order. */
export function buildDataset(options: DatasetOptions): Dataset {
  const opts: Required<DatasetOptions> = { searchSample: 400, ...options };
  const preset = PRESETS[opts.preset];
  const rng = new Rng(opts.seed);
  const f = seededFaker(opts.seed);
  const kinds = Object.entries(opts.kinds).filter(([, w]) => w && w > 0) as Array<[EntityKind, number]>;
  if (!kinds.length) throw new Error('buildDataset: no entity kind given');

  const entities: Entity[] = [];
  while (entities.length < opts.size) {
    const kind = kinds[rng.weighted(kinds.map(([, w]) => w))]![0];
    const id = entities.length;
    const groups = HARD_NEGATIVE_KINDS.filter((h) => h.entityKind === kind);
    const chosen = groups.find((h) =>
      rng.chance(Math.min(0.5, (h.share * preset.hardNegatives) / MEAN_GROUP_SIZE[h.kind]!)),
    );
    const made = chosen ? chosen.build(f, rng, id) : [ENTITY_BUILDERS[kind](f, rng, id)];
    for (const e of made.slice(0, opts.size - entities.length)) entities.push(e);
  }
  // A group cut short by the size limit is no longer a group of look-alikes if one member is left.
  const groupSizes = new Map<string, number>();
  for (const e of entities)
    if (e.hardNegative) groupSizes.set(e.hardNegative.group, (groupSizes.get(e.hardNegative.group) ?? 0) + 1);
  for (const e of entities) if (e.hardNegative && groupSizes.get(e.hardNegative.group)! < 2) delete e.hardNegative;

  const households = new Map<string, Entity[]>();
  for (const e of entities)
    if (e.hardNegative?.kind === 'household')
      (
        households.get(e.hardNegative.group) ?? households.set(e.hardNegative.group, []).get(e.hardNegative.group)!
      ).push(e);

  const records: LinkageRecord[] = [];
  const byEntity: LinkageRecord[][] = [];
  for (const entity of entities) {
    const n = 1 + (rng.chance(preset.pDuplicated) ? 1 + rng.weighted(preset.extraRecords) : 0);
    const household =
      entity.hardNegative?.kind === 'household'
        ? households.get(entity.hardNegative.group)!.filter((h) => h !== entity)
        : [];
    const own: LinkageRecord[] = [];
    for (let index = 0; index < n; index++) {
      const { fields, ops } = corrupt(rng, { f, entity, household }, preset, index > 0);
      own.push({ id: '', entity: entity.id, kind: entity.kind, index, fields, ops });
    }
    byEntity.push(own);
    records.push(...own);
  }

  const sampledRecords = sampleQueries(rng, byEntity, opts.searchSample);

  // Posting order: shuffled, sampled query records last (they are searched before they are posted).
  const order = [
    ...rng.shuffle(records.filter((r) => !sampledRecords.has(r))),
    ...records.filter((r) => sampledRecords.has(r)),
  ];
  order.forEach((r, i) => (r.id = `r${String(i).padStart(6, '0')}`));
  return {
    options: opts,
    entities,
    records: order,
    searchSample: order.filter((r) => sampledRecords.has(r)).map((r) => r.id),
  };
}
