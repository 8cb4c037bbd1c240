// The bindings the tests see: the Worker's own Env plus the migrations the setup file applies.
type StudioEnv = import("../../worker/env.ts").Env;
type StudioMigrations = import("cloudflare:test").D1Migration[];

declare namespace Cloudflare {
  interface Env extends StudioEnv {
    TEST_MIGRATIONS: StudioMigrations;
  }
}

// Vite's ?raw import (the file's text), which the workerd test project resolves: play-gsap.test.ts compares the
// bytes /play serves with the installed GSAP releases' files.
declare module "*?raw" {
  const text: string;
  export default text;
}
