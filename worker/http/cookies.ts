// Every cookie the Worker sets: HttpOnly, SameSite=Lax, Secure whenever the request came over https.
import type { Context } from "hono";
import { setCookie } from "hono/cookie";

export function setPrivateCookie(c: Context, name: string, value: string, options: { path: string; maxAgeSeconds: number }): void {
  setCookie(c, name, value, {
    httpOnly: true,
    sameSite: "Lax",
    secure: new URL(c.req.url).protocol === "https:",
    path: options.path,
    maxAge: options.maxAgeSeconds,
  });
}
