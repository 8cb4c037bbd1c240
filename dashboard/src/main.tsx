// Entry point: mounts the dashboard and turns same-origin links into client-side navigations.
import { render } from "preact";
import { App } from "./app.tsx";
import { interceptLinks, sendViewBeacon } from "./lib/router.ts";
import "./styles.css";

const root = document.getElementById("app");
if (root) {
  root.textContent = "";
  interceptLinks(root);
  render(<App />, root);
  sendViewBeacon();
}
