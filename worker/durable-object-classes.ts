// The Durable Object classes the Worker binds, by name, for env.ts to type its namespaces. Each class adds itself
// here (`declare module`) from its own file, so env.ts, which every module imports, imports no class: a class's
// module imports env.ts, and env.ts naming it back closed one import circle through most of worker/.
// A program that leaves a class's file out (a tools script) sees no entry and gets an untyped namespace.

/** Filled by declaration merging: each class's module adds `Name: Class`. */
export interface DurableObjectClasses {}

/** The class registered under `name`, or undefined (an untyped namespace) where its module is not in the program. */
export type DurableObjectClass<Name extends string> = Name extends keyof DurableObjectClasses ? DurableObjectClasses[Name] : undefined;
