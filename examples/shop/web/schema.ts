/**
 * The contract of the Shop module's product routes as the console calls them, in the shape openapi-typescript
 * generates (`paths`). Written from the module's route list while the module itself lands: once its OpenAPI
 * document exists, generate this file from it (`openapi-typescript <document> -o schema.d.ts`) and delete this one.
 */
export interface Product {
  id: number;
  name: string;
  /** The product's code (SKU), unique. */
  code: string;
  /** The price in the smallest currency unit. */
  price: number;
  stock: number;
  enabled: boolean;
  remark: string | null;
  /** Format: date-time */
  createTime: string;
}

/** What a create or an update sends. */
export interface ProductFields {
  name: string;
  code: string;
  price: number;
  stock: number;
  enabled: boolean;
  remark: string | null;
}

export interface ProductPage {
  current: number;
  size: number;
  total: number;
  pages: number;
  items: Product[];
}

interface Envelope<T> {
  code: number;
  msgKey: string;
  data: T;
  args?: Record<string, unknown>;
}
type Ok<T> = {
  200: { headers: { [name: string]: unknown }; content: { 'application/json': Envelope<T> } };
};
type IdPath = { query?: never; header?: never; path: { id: number }; cookie?: never };
type Json<T> = { content: { 'application/json': T } };

export interface paths {
  '/api/v1/shop/product/page': {
    get: {
      parameters: {
        query?: {
          current?: number;
          size?: number;
          sortField?: string;
          sortOrder?: string;
          name?: string;
          code?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: Ok<ProductPage>;
    };
  };
  '/api/v1/shop/product': {
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: Json<ProductFields>;
      responses: Ok<{ id: number }>;
    };
  };
  '/api/v1/shop/product/{id}': {
    get: { parameters: IdPath; requestBody?: never; responses: Ok<Product> };
    put: { parameters: IdPath; requestBody: Json<Partial<ProductFields>>; responses: Ok<null> };
    delete: { parameters: IdPath; requestBody?: never; responses: Ok<null> };
  };
}
