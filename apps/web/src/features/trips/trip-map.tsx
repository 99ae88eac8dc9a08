import { CircleMarker, Polyline, Tooltip } from 'react-leaflet';
import { m } from '@bmet/shared/paraglide/messages';
import { BaseMap } from '../../components/base-map';
import { labelContent } from '../../components/map-label';

type Point = { lat: number; long: number };

const PICK_UP = '#2b8a3e';
const DESTINATION = '#c92a2a';

/**
 * The trip's pick-up (green) and destination (red) on a map, joined by a straight line (the route
 * taken is not recorded); each point named in a tooltip that stays open. Loaded with the panel of a
 * trip that has both points.
 */
export function TripMap({ pickUp, destination }: { pickUp: Point; destination: Point }) {
  const from: [number, number] = [pickUp.lat, pickUp.long];
  const to: [number, number] = [destination.lat, destination.long];
  return (
    <BaseMap
      bounds={[from, to]}
      boundsOptions={{ padding: [40, 40], maxZoom: 15 }}
      style={{ height: 240, width: '100%', borderRadius: 8 }}
      scrollWheelZoom={false}
      label={m.tripsMapTitle()}
    >
      <Polyline positions={[from, to]} pathOptions={{ color: '#1c7ed6', dashArray: '6 6', weight: 3 }} />
      <CircleMarker center={from} radius={8} pathOptions={{ color: PICK_UP, fillOpacity: 0.9 }}>
        <Tooltip
          key={m.tripsMapPickUp()}
          permanent
          direction="top"
          content={labelContent(m.tripsMapPickUp())}
        />
      </CircleMarker>
      <CircleMarker center={to} radius={8} pathOptions={{ color: DESTINATION, fillOpacity: 0.9 }}>
        <Tooltip
          key={m.tripsMapDestination()}
          permanent
          direction="top"
          content={labelContent(m.tripsMapDestination())}
        />
      </CircleMarker>
    </BaseMap>
  );
}
