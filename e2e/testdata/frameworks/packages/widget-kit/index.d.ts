import type { ReactNode } from "react";
export declare function KitProvider(props: { children?: ReactNode }): ReactNode;
export declare function useKitProps<T = unknown>(): T | null;
export declare function useKitTheme(): "light" | "dark";
