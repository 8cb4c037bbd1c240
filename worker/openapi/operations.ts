// Every operation of the API, resource by resource.
import { agentToolOperations } from "./agent-tools.ts";
import { batchOperations } from "./batches.ts";
import { boardOperations } from "./board.ts";
import { checkOperations } from "./checks.ts";
import { nodeKeyOperations, nodeOperations } from "./node.ts";
import { oauthOperations } from "./oauth.ts";
import type { Operation } from "./operation.ts";
import { playOperations } from "./play.ts";
import { projectOperations } from "./projects.ts";
import { renderOperations } from "./renders.ts";
import { studioOperations } from "./studio.ts";

export const OPERATIONS: Operation[] = [
  ...studioOperations,
  ...projectOperations,
  ...checkOperations,
  ...renderOperations,
  ...batchOperations,
  ...playOperations,
  ...boardOperations,
  ...nodeOperations,
  ...nodeKeyOperations,
  ...agentToolOperations,
  ...oauthOperations,
];
