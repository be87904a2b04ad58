/** Kills this process's group and exits once the process that started it is gone. */
export function watchParent(): void;
