import { openApiDocument } from "@/lib/openapi/document";
const doc = openApiDocument() as any;
console.log(Object.keys(doc.components.schemas));
console.log(JSON.stringify(doc.components.schemas.BatchTranslateRequest, null, 1).slice(0,800));
console.log(JSON.stringify(doc.components.schemas.LanguagesResponse, null, 1).slice(0,600));
console.log(JSON.stringify(doc.components.schemas.RevokedKey, null, 1));
console.log(JSON.stringify(doc.paths["/api/v1/languages"].get.parameters, null, 1));
console.log(JSON.stringify(doc.components.schemas.HealthResponse, null, 1).slice(0,900));
