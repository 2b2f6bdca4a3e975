// The map webview's page and its Content-Security-Policy. Deliberately free of `vscode` imports
// (the panel passes in the webview URIs), so a plain unit test can load this exact page in a real
// browser and check that the policy blocks every script but the nonced one.
import { newNonce, webviewPage } from '../webviewPage';

export interface MapHtmlAssets {
  /** `webview.cspSource`: where the page may load its own styles, images and fonts from. */
  cspSource: string;
  leafletCss: string;
  mapCss: string;
  /** The bundled map script (dist/webview/map.js) as a webview URI. */
  script: string;
}

export interface MapHtml {
  html: string;
  csp: string;
  nonce: string;
}

export function mapHtml(assets: MapHtmlAssets, nonce: string = newNonce()): MapHtml {
  // Tiles are the only remote content: images from any https host (the template is a setting).
  // The offline basemap (TopoJSON beside the script) is fetched from the page's own resources.
  const { html, csp } = webviewPage({
    csp: [
      `img-src ${assets.cspSource} https: data:`,
      `connect-src ${assets.cspSource}`,
      `style-src ${assets.cspSource}`,
      `script-src 'nonce-${nonce}'`,
      `font-src ${assets.cspSource}`,
    ],
    title: 'Map',
    head: `<link rel="stylesheet" href="${assets.leafletCss}">
<link rel="stylesheet" href="${assets.mapCss}">`,
    body: `<header><span id="title">Map</span><span id="status"></span></header>
<div id="map" role="application" aria-label="Map"></div>
<script nonce="${nonce}" src="${assets.script}"></script>`,
  });
  return { html, csp, nonce };
}
