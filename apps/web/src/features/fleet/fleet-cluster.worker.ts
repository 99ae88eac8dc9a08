/// <reference lib="webworker" />
import Supercluster, { type PointFeature } from 'supercluster';
import type { ClusterRequest, ClusterResponse } from './fleet-cluster-protocol';
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS } from './fleet-cluster-protocol';

/**
 * Clusters the fleet away from the page's main thread: clustering 100,000 cars takes a tenth of
 * a second, which on the main thread would be a visible stutter every time the cars move.
 * Cars travel as numbers (a slot per car), never as objects or strings.
 */
type CarProps = { slot: number; freshness: number };
type ClusterProps = { counts: number[] };

const scope = self as unknown as DedicatedWorkerGlobalScope;
const index = new Supercluster<CarProps, ClusterProps>({
  radius: CLUSTER_RADIUS,
  maxZoom: CLUSTER_MAX_ZOOM,
  map: (props) => {
    const counts = [0, 0, 0, 0];
    counts[props.freshness]! += 1;
    return { counts };
  },
  reduce: (acc, props) => {
    for (let i = 0; i < acc.counts.length; i++) acc.counts[i]! += props.counts[i]!;
  },
});
/** One point per slot, moved in place at every load. */
const points: PointFeature<CarProps>[] = [];
/** The load the index holds. */
let current = -1;

const answer = (response: ClusterResponse, transfer: Transferable[] = []) =>
  scope.postMessage(response, transfer);

scope.onmessage = (event: MessageEvent<ClusterRequest>) => {
  const request = event.data;
  if (request.type === 'load') {
    const started = performance.now();
    const { cars } = request;
    const loaded: PointFeature<CarProps>[] = [];
    for (let slot = 0; slot * 3 < cars.length; slot++) {
      const long = cars[slot * 3]!;
      if (Number.isNaN(long)) continue;
      let point = points[slot];
      if (!point) {
        point = {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [0, 0] },
          properties: { slot, freshness: 0 },
        };
        points[slot] = point;
      }
      point.geometry.coordinates[0] = long;
      point.geometry.coordinates[1] = cars[slot * 3 + 1]!;
      point.properties.freshness = cars[slot * 3 + 2]!;
      loaded.push(point);
    }
    index.load(loaded);
    current = request.load;
    answer({ type: 'loaded', load: request.load, ms: performance.now() - started });
  } else if (request.type === 'query') {
    const items = index.getClusters(request.bbox, request.zoom);
    let clusterCount = 0;
    for (const item of items) if ('cluster' in item.properties) clusterCount++;
    // Per cluster: long, lat, count, id, then the count of each freshness.
    const clusters = new Float64Array(clusterCount * 8);
    const cars = new Int32Array(items.length - clusterCount);
    let c = 0;
    let p = 0;
    for (const item of items) {
      const props = item.properties as Partial<ClusterProps & CarProps> & {
        cluster_id?: number;
        point_count?: number;
      };
      if ('cluster' in item.properties) {
        clusters.set(
          [
            item.geometry.coordinates[0]!,
            item.geometry.coordinates[1]!,
            props.point_count!,
            props.cluster_id!,
            ...props.counts!,
          ],
          c * 8,
        );
        c++;
      } else cars[p++] = props.slot!;
    }
    answer({ type: 'clusters', query: request.query, load: current, clusters, cars }, [
      clusters.buffer,
      cars.buffer,
    ]);
  } else if (request.type === 'expansion') {
    answer({
      type: 'expansion',
      clusterId: request.clusterId,
      zoom: index.getClusterExpansionZoom(request.clusterId),
    });
  }
};
