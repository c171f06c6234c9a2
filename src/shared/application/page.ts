/** One page of a listing (docs/api.md "Pages"). `page` is zero-based. */
export interface Page<T> {
  data: T[];
  page: number;
  perPage: number;
  totalItems: number;
}
