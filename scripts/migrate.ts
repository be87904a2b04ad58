import { openDatabase } from './database.ts';

const { applied, close } = await openDatabase();
await close();
console.log(JSON.stringify({ applied }));
