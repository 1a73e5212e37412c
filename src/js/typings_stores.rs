//! TypeScript types of the browser stores (`IndexedDbConversationStore`,
//! `WebStorageConversationStore`): the storage object a Web Storage store accepts and the
//! interface of a store that also keeps halted runs.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** What a {@link WebStorageConversationStore} needs of its storage: `localStorage`, `sessionStorage` or a look-alike. */
export interface StorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** A conversation store that also keeps halted runs (`RunResult` with `status: "pending"`) for a later `runWithAnswer`. */
export interface PendingStore extends ConversationStore {
  savePending(key: string, result: RunResult): Promise<void>
  loadPending(key: string): Promise<RunResult | undefined>
  deletePending(key: string): Promise<void>
}
"#;
