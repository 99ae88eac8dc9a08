import L from 'leaflet';
import type { ClusterRequest, ClusterResponse } from './fleet-cluster-protocol';
import type { FleetCar, FleetStore } from './fleet-store';
import { FRESHNESS, FRESHNESS_COLORS, freshnessOf } from '../../lib/freshness';

/** A marker as drawn, in layer pixels, for clicks and hovers to find. */
type Drawn = { x: number; y: number; r: number; latLng: L.LatLng } & (
  | { car: FleetCar; clusterId?: undefined; count?: undefined }
  | { car?: undefined; clusterId: number; count: number }
);

export type FleetLayerOptions = {
  store: FleetStore;
  /** Which cars to show. */
  filter: (car: FleetCar, now: number) => boolean;
  /** A click on a car. */
  onOpen: (car: FleetCar) => void;
  /** The hover text of a car and of a cluster. */
  describeCar: (car: FleetCar, now: number) => string;
  describeCluster: (count: number) => string;
};

/** The canvas reaches half a screen beyond each edge: a pan within that needs no redraw. */
const PADDING = 0.5;
const CAR_RADIUS = 7;
/** Re-clustering runs at most this often, and keeps the worker busy a third of the time at most. */
const MIN_RELOAD_MS = 400;
const RELOAD_SHARE = 3;
/** Colours age without any report: the markers are checked this often. */
const AGE_CHECK_MS = 15_000;

const FRESHNESS_INDEX = Object.fromEntries(FRESHNESS.map((f, i) => [f, i])) as Record<string, number>;

/**
 * Every car of the store on one canvas, clustered when zoomed out (supercluster, in a worker) and
 * a marker per car when zoomed in, coloured by freshness. Tens of thousands of DOM markers would
 * stall the page; here a pan only moves the canvas (it is redrawn when the pan ends), a zoom
 * scales it while it animates, and the cars are clustered again a few times a second at most,
 * off the main thread. It works without map tiles. Positioned as Leaflet's own vector renderer
 * positions its canvas.
 */
export class FleetLayer extends L.Layer {
  readonly #config: FleetLayerOptions;
  #worker: Worker | null = null;
  /** A slot per car, the cars' numbers for the worker; slots are not reused until they pile up. */
  #slots = new Map<string, number>();
  #slotCars: (FleetCar | undefined)[] = [];
  #load = 0;
  #loading = false;
  /** Answers from loads before this one name slots that now hold other cars. */
  #renumberedAt = 0;
  /** Clusters clicked, waiting for the zoom at which they fall apart. */
  readonly #expanding = new Map<number, L.LatLng>();
  #query = 0;
  /** The worker's latest answer for the view: clusters (8 numbers each) and the slots of single cars. */
  #clusters: Float64Array = new Float64Array(0);
  #cars: Int32Array = new Int32Array(0);
  #map: L.Map | null = null;
  #canvas: HTMLCanvasElement | null = null;
  #context: CanvasRenderingContext2D | null = null;
  #origin = L.point(0, 0);
  #center = L.latLng(0, 0);
  #zoom = 0;
  #drawn: Drawn[] = [];
  #highlight: string | null = null;
  #hovered: Drawn | null = null;
  readonly #tooltip = L.tooltip({ direction: 'top', className: 'fleet-tooltip', opacity: 1 });
  #loadedAt = Number.NEGATIVE_INFINITY;
  #loadMs = 0;
  #reloadTimer: ReturnType<typeof setTimeout> | undefined;
  #ageTimer: ReturnType<typeof setInterval> | undefined;
  #unsubscribe: (() => void) | null = null;

  constructor(config: FleetLayerOptions) {
    super();
    this.#config = config;
  }

  override onAdd(map: L.Map): this {
    this.#map = map;
    const canvas = L.DomUtil.create('canvas', 'leaflet-zoom-animated fleet-canvas');
    this.getPane()!.appendChild(canvas);
    this.#canvas = canvas;
    this.#context = canvas.getContext('2d');
    this.#worker = new Worker(new URL('./fleet-cluster.worker.ts', import.meta.url), { type: 'module' });
    this.#worker.onmessage = (event: MessageEvent<ClusterResponse>) => this.#onWorker(event.data);
    map.on('click', this.#onClick, this);
    map.on('mousemove', this.#onHover, this);
    map.on('mouseout', this.#endHover, this);
    this.#unsubscribe = this.#config.store.subscribe(() => this.#scheduleReload());
    this.#ageTimer = setInterval(() => this.#scheduleReload(), AGE_CHECK_MS);
    this.#reload();
    this.#reset();
    return this;
  }

  #send(request: ClusterRequest, transfer: Transferable[] = []): void {
    this.#worker?.postMessage(request, transfer);
  }

  #onWorker(response: ClusterResponse): void {
    const map = this.#map;
    if (!map) return;
    if (response.type === 'loaded') {
      this.#loading = false;
      this.#loadedAt = performance.now();
      this.#loadMs = response.ms;
      this.#ask();
    } else if (response.type === 'clusters') {
      // An answer to an older question, or from an index of slots since renumbered, is dropped.
      if (response.query !== this.#query || response.load < this.#renumberedAt) return;
      this.#clusters = response.clusters;
      this.#cars = response.cars;
      // While a zoom animates, the canvas is scaled as drawn; the zoom's end draws afresh.
      if (!(map as unknown as { _animatingZoom?: boolean })._animatingZoom) this.#draw();
    } else if (response.type === 'expansion') {
      const at = this.#expanding.get(response.clusterId);
      this.#expanding.delete(response.clusterId);
      if (at) map.setView(at, Math.min(response.zoom, map.getMaxZoom()), { animate: true });
    }
  }

  /** Asks the worker what to draw in the view as it now is. */
  #ask(): void {
    const map = this.#map;
    if (!map) return;
    const area = map.getBounds().pad(PADDING);
    this.#send({
      type: 'query',
      query: ++this.#query,
      bbox: [
        Math.max(-180, area.getWest()),
        Math.max(-85, area.getSouth()),
        Math.min(180, area.getEast()),
        Math.min(85, area.getNorth()),
      ],
      zoom: Math.round(map.getZoom()),
    });
  }

  override onRemove(map: L.Map): this {
    map.off('click', this.#onClick, this);
    map.off('mousemove', this.#onHover, this);
    map.off('mouseout', this.#endHover, this);
    this.#tooltip.close();
    this.#unsubscribe?.();
    clearTimeout(this.#reloadTimer);
    clearInterval(this.#ageTimer);
    this.#worker?.terminate();
    this.#worker = null;
    this.#canvas?.remove();
    this.#canvas = null;
    this.#context = null;
    this.#map = null;
    return this;
  }

  override getEvents() {
    return {
      moveend: this.#reset,
      viewreset: this.#reset,
      zoom: this.#onZoom,
      zoomanim: this.#onZoomAnimation as L.LeafletEventHandlerFn,
    };
  }

  /** Shows only the cars that pass (re-clustered at once). */
  setFilter(filter: FleetLayerOptions['filter']): void {
    this.#config.filter = filter;
    if (this.#map) this.#reload();
  }

  /** What a click on a car does. */
  setOnOpen(onOpen: FleetLayerOptions['onOpen']): void {
    this.#config.onOpen = onOpen;
  }

  /** Rings one car (found by a search), drawn on top even inside a cluster. */
  setHighlight(id: string | null): void {
    this.#highlight = id;
    this.#draw();
  }

  #scheduleReload(): void {
    if (this.#reloadTimer !== undefined || !this.#map) return;
    const interval = Math.max(MIN_RELOAD_MS, this.#loadMs * RELOAD_SHARE);
    const wait = Math.max(0, this.#loadedAt + interval - performance.now());
    this.#reloadTimer = setTimeout(() => {
      this.#reloadTimer = undefined;
      // One load at a time: the next waits for the worker to finish this one.
      if (this.#loading) this.#scheduleReload();
      else if (this.#map) this.#reload();
    }, wait);
  }

  /** Hands the worker the cars that pass the filter, where they are now, to cluster. */
  #reload(): void {
    const now = Date.now();
    const { store, filter } = this.#config;
    // Slots of cars that are gone pile up; once they are many, every car is numbered afresh.
    if (this.#slotCars.length > 2 * store.cars.size + 1000) {
      this.#slots.clear();
      this.#slotCars = [];
      this.#renumberedAt = this.#load + 1;
      this.#clusters = new Float64Array(0);
      this.#cars = new Int32Array(0);
    }
    for (const car of store.cars.values()) {
      let slot = this.#slots.get(car.id);
      if (slot === undefined) {
        slot = this.#slotCars.length;
        this.#slots.set(car.id, slot);
      }
      this.#slotCars[slot] = car;
    }
    const cars = new Float64Array(this.#slotCars.length * 3);
    for (let slot = 0; slot < this.#slotCars.length; slot++) {
      const car = this.#slotCars[slot];
      if (!car || store.cars.get(car.id) !== car || !filter(car, now)) {
        cars[slot * 3] = Number.NaN;
        continue;
      }
      cars[slot * 3] = car.long;
      cars[slot * 3 + 1] = car.lat;
      cars[slot * 3 + 2] = FRESHNESS_INDEX[freshnessOf(car.at, now)]!;
    }
    this.#loading = true;
    this.#send({ type: 'load', load: ++this.#load, cars }, [cars.buffer]);
  }

  /** After a move or zoom: the canvas is placed over the view again and redrawn. */
  #reset(): void {
    const map = this.#map;
    const canvas = this.#canvas;
    if (!map || !canvas) return;
    if ((map as unknown as { _animatingZoom?: boolean })._animatingZoom) return;
    const size = map.getSize();
    const origin = map.containerPointToLayerPoint(size.multiplyBy(-PADDING)).round();
    const full = size.multiplyBy(1 + 2 * PADDING).round();
    this.#origin = origin;
    this.#center = map.getCenter();
    this.#zoom = map.getZoom();
    L.DomUtil.setPosition(canvas, origin);
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(full.x * ratio) || canvas.height !== Math.round(full.y * ratio)) {
      canvas.width = Math.round(full.x * ratio);
      canvas.height = Math.round(full.y * ratio);
      canvas.style.width = `${full.x}px`;
      canvas.style.height = `${full.y}px`;
    }
    // What was drawn is drawn again in place at once; the worker's answer for the new view follows.
    this.#draw();
    this.#ask();
  }

  #onZoom(): void {
    if (this.#map) this.#transform(this.#map.getCenter(), this.#map.getZoom());
  }

  #onZoomAnimation(event: L.ZoomAnimEvent): void {
    this.#transform(event.center, event.zoom);
  }

  /** Scales the canvas as drawn towards a zoom on its way (as L.Renderer does). */
  #transform(center: L.LatLng, zoom: number): void {
    const map = this.#map;
    if (!map || !this.#canvas) return;
    const scale = map.getZoomScale(zoom, this.#zoom);
    const viewHalf = map.getSize().multiplyBy(0.5 + PADDING);
    const centerPoint = map.project(this.#center, zoom);
    const newOrigin = (
      map as unknown as { _getNewPixelOrigin(center: L.LatLng, zoom: number): L.Point }
    )._getNewPixelOrigin(center, zoom);
    const offset = viewHalf.multiplyBy(-scale).add(centerPoint).subtract(newOrigin);
    L.DomUtil.setTransform(this.#canvas, offset, scale);
  }

  #draw(): void {
    const map = this.#map;
    const canvas = this.#canvas;
    const context = this.#context;
    if (!map || !canvas || !context) return;
    const ratio = canvas.width / Math.max(1, parseFloat(canvas.style.width) || canvas.width);
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, canvas.width, canvas.height);
    context.setTransform(ratio, 0, 0, ratio, -this.#origin.x * ratio, -this.#origin.y * ratio);

    const dark = document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark';
    const drawn: Drawn[] = [];
    const clusters = this.#clusters;
    // Clusters first, cars above them.
    for (let i = 0; i < clusters.length; i += 8) {
      const latLng = L.latLng(clusters[i + 1]!, clusters[i]!);
      const count = clusters[i + 2]!;
      const at = map.latLngToLayerPoint(latLng);
      const r = 13 + Math.min(13, Math.log10(count) * 5);
      drawCluster(context, at, r, count, clusters.subarray(i + 4, i + 8), dark);
      drawn.push({ x: at.x, y: at.y, r, latLng, clusterId: clusters[i + 3]!, count });
    }
    const { store } = this.#config;
    const now = Date.now();
    let markers = 0;
    for (const slot of this.#cars) {
      const car = this.#slotCars[slot];
      // Drawn where the car is now, which may be newer than the clustering.
      if (!car || car.id === this.#highlight || store.cars.get(car.id) !== car) continue;
      drawn.push(this.#drawCar(context, car, FRESHNESS_INDEX[freshnessOf(car.at, now)]!, false));
      markers++;
    }
    const highlighted = this.#highlight ? store.cars.get(this.#highlight) : undefined;
    if (highlighted) {
      const freshness = FRESHNESS_INDEX[freshnessOf(highlighted.at, Date.now())]!;
      drawn.push(this.#drawCar(context, highlighted, freshness, true));
      markers++;
    }
    this.#drawn = drawn;
    // What the map shows, for tests and tools (a canvas has no elements to count).
    const container = map.getContainer();
    container.dataset.markers = String(markers);
    container.dataset.clusters = String(clusters.length / 8);
  }

  #drawCar(context: CanvasRenderingContext2D, car: FleetCar, freshness: number, highlighted: boolean): Drawn {
    const latLng = L.latLng(car.lat, car.long);
    const at = this.#map!.latLngToLayerPoint(latLng);
    if (highlighted) {
      context.beginPath();
      context.arc(at.x, at.y, CAR_RADIUS + 7, 0, 2 * Math.PI);
      context.lineWidth = 3;
      context.strokeStyle = '#1971c2';
      context.stroke();
    }
    context.beginPath();
    context.arc(at.x, at.y, CAR_RADIUS, 0, 2 * Math.PI);
    context.fillStyle = FRESHNESS_COLORS[FRESHNESS[freshness]!];
    context.fill();
    context.lineWidth = 2;
    context.strokeStyle = '#ffffff';
    context.stroke();
    context.beginPath();
    context.arc(at.x, at.y, CAR_RADIUS + 1.5, 0, 2 * Math.PI);
    context.lineWidth = 1;
    context.strokeStyle = 'rgba(0, 0, 0, 0.55)';
    context.stroke();
    return { x: at.x, y: at.y, r: CAR_RADIUS + 2, latLng, car };
  }

  #hit(point: L.Point): Drawn | null {
    for (let i = this.#drawn.length - 1; i >= 0; i--) {
      const item = this.#drawn[i]!;
      if ((item.x - point.x) ** 2 + (item.y - point.y) ** 2 <= (item.r + 3) ** 2) return item;
    }
    return null;
  }

  #onClick(event: L.LeafletMouseEvent): void {
    const map = this.#map;
    const hit = this.#hit(event.layerPoint);
    if (!map || !hit) return;
    if (hit.car) this.#config.onOpen(hit.car);
    else {
      this.#expanding.set(hit.clusterId, hit.latLng);
      this.#send({ type: 'expansion', clusterId: hit.clusterId });
    }
  }

  #onHover(event: L.LeafletMouseEvent): void {
    const map = this.#map;
    if (!map) return;
    const hit = this.#hit(event.layerPoint);
    map.getContainer().style.cursor = hit ? 'pointer' : '';
    if (!hit) return this.#endHover();
    if (hit === this.#hovered) return;
    this.#hovered = hit;
    const text = hit.car
      ? this.#config.describeCar(hit.car, Date.now())
      : this.#config.describeCluster(hit.count);
    this.#tooltip.options.offset = L.point(0, -hit.r);
    this.#tooltip.setLatLng(hit.latLng).setContent(text);
    if (!map.hasLayer(this.#tooltip)) this.#tooltip.openOn(map);
  }

  #endHover(): void {
    this.#hovered = null;
    this.#tooltip.close();
    if (this.#map) this.#map.getContainer().style.cursor = '';
  }
}

function drawCluster(
  context: CanvasRenderingContext2D,
  at: L.Point,
  r: number,
  count: number,
  counts: ArrayLike<number>,
  dark: boolean,
): void {
  context.beginPath();
  context.arc(at.x, at.y, r, 0, 2 * Math.PI);
  context.fillStyle = dark ? '#25262b' : '#ffffff';
  context.fill();
  // A ring in the colours of the cars inside, in proportion.
  let start = -Math.PI / 2;
  context.lineWidth = 5;
  for (let i = 0; i < counts.length; i++) {
    if (!counts[i]) continue;
    const end = start + (2 * Math.PI * counts[i]!) / count;
    context.beginPath();
    context.arc(at.x, at.y, r - 2.5, start, end);
    context.strokeStyle = FRESHNESS_COLORS[FRESHNESS[i]!];
    context.stroke();
    start = end;
  }
  context.beginPath();
  context.arc(at.x, at.y, r + 0.5, 0, 2 * Math.PI);
  context.lineWidth = 1;
  context.strokeStyle = 'rgba(0, 0, 0, 0.45)';
  context.stroke();
  context.fillStyle = dark ? '#f1f3f5' : '#1a1b1e';
  context.font = `600 ${count >= 10_000 ? 11 : 12}px system-ui, sans-serif`;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(count >= 10_000 ? `${Math.round(count / 1000)}k` : String(count), at.x, at.y + 0.5);
}
