/**
 * A map label's text for react-leaflet's Tooltip (`content`), which Leaflet writes into the label
 * as it puts it on the map. Given as the Tooltip's children, the text comes through a portal on
 * React's next render instead: until then the label is on the page empty, a tooltip without a name
 * to screen readers (axe caught 36 city names so). Leaflet reads it once, when it makes the label:
 * key the Tooltip by its text so that a new text (another language) makes a new label.
 */
export function labelContent(text: string): () => HTMLElement {
  return () => {
    const label = document.createElement('span');
    label.textContent = text;
    return label;
  };
}
