import type { BuildOptions } from 'esbuild';

export function workerdBuild(nodeCompat: boolean): BuildOptions;
export function edgeLightBuild(): BuildOptions;
