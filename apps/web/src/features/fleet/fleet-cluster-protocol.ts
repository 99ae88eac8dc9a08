/** What the map's main thread and its clustering worker say to each other (fleet-cluster.worker.ts). */

/** Cars closer than this many pixels join a cluster, up to CLUSTER_MAX_ZOOM. */
export const CLUSTER_RADIUS = 60;
/** From the zoom after this one, every car has a marker of its own. */
export const CLUSTER_MAX_ZOOM = 14;

export type ClusterRequest =
  /** Every slot's car as long, lat, freshness (index in FRESHNESS); NaN for an empty slot. */
  | { type: 'load'; load: number; cars: Float64Array }
  | { type: 'query'; query: number; bbox: [number, number, number, number]; zoom: number }
  | { type: 'expansion'; clusterId: number };

export type ClusterResponse =
  | { type: 'loaded'; load: number; ms: number }
  /**
   * What to draw, from the index of load `load`: per cluster long, lat, count, id and the counts
   * of each freshness (8 numbers); and the slots of the cars drawn alone.
   */
  | { type: 'clusters'; query: number; load: number; clusters: Float64Array; cars: Int32Array }
  | { type: 'expansion'; clusterId: number; zoom: number };
