// Routes of the OpenAI resources that hold state between requests: fine-tuning jobs (and deleting
// their models), batches, vector stores with their files and search, and uploads in parts.
import type { Router, PathParams } from '../router';
import { Batches, type Dispatch } from './batches';
import type { Ctx, LlmService } from './context';
import type { FileStore } from './files';
import { deleteModel, FineTuningJobs } from './fineTuning';
import type { UploadSlots } from './multipart';
import { Uploads } from './uploads';
import { VectorStores } from './vectorStores';

type Handler = (ctx: Ctx, params: PathParams) => void | Promise<void>;

export function addJobRoutes(routes: Router<Handler>, svc: LlmService, files: FileStore, slots: UploadSlots, dispatch: Dispatch): void {
  const jobs = new FineTuningJobs(svc, files);
  const batches = new Batches(svc, files, dispatch);
  const stores = new VectorStores(svc, files);
  const uploads = new Uploads(svc, files, slots);
  routes
    .add('DELETE', '/v1/models/{model}', (ctx, { model }) => deleteModel(svc, ctx, model))
    .add('POST', '/v1/fine_tuning/jobs', (ctx) => jobs.create(ctx))
    .add('GET', '/v1/fine_tuning/jobs', (ctx) => jobs.list(ctx))
    .add('GET', '/v1/fine_tuning/jobs/{id}', (ctx, { id }) => jobs.retrieve(ctx, id))
    .add('POST', '/v1/fine_tuning/jobs/{id}/cancel', (ctx, { id }) => jobs.cancel(ctx, id))
    .add('GET', '/v1/fine_tuning/jobs/{id}/events', (ctx, { id }) => jobs.listEvents(ctx, id))
    .add('GET', '/v1/fine_tuning/jobs/{id}/checkpoints', (ctx, { id }) => jobs.listCheckpoints(ctx, id))
    .add('POST', '/v1/batches', (ctx) => batches.create(ctx))
    .add('GET', '/v1/batches', (ctx) => batches.list(ctx))
    .add('GET', '/v1/batches/{id}', (ctx, { id }) => batches.retrieve(ctx, id))
    .add('POST', '/v1/batches/{id}/cancel', (ctx, { id }) => batches.cancel(ctx, id))
    .add('POST', '/v1/vector_stores', (ctx) => stores.create(ctx))
    .add('GET', '/v1/vector_stores', (ctx) => stores.list(ctx))
    .add('GET', '/v1/vector_stores/{id}', (ctx, { id }) => stores.retrieve(ctx, id))
    .add('POST', '/v1/vector_stores/{id}', (ctx, { id }) => stores.update(ctx, id))
    .add('DELETE', '/v1/vector_stores/{id}', (ctx, { id }) => stores.delete(ctx, id))
    .add('POST', '/v1/vector_stores/{id}/search', (ctx, { id }) => stores.search(ctx, id))
    .add('POST', '/v1/vector_stores/{id}/files', (ctx, { id }) => stores.attachFile(ctx, id))
    .add('GET', '/v1/vector_stores/{id}/files', (ctx, { id }) => stores.listFiles(ctx, id))
    .add('GET', '/v1/vector_stores/{id}/files/{file}', (ctx, { id, file }) => stores.retrieveFile(ctx, id, file))
    .add('GET', '/v1/vector_stores/{id}/files/{file}/content', (ctx, { id, file }) => stores.fileContent(ctx, id, file))
    .add('DELETE', '/v1/vector_stores/{id}/files/{file}', (ctx, { id, file }) => stores.deleteFile(ctx, id, file))
    .add('POST', '/v1/uploads', (ctx) => uploads.create(ctx))
    .add('POST', '/v1/uploads/{id}/parts', (ctx, { id }) => uploads.addPart(ctx, id))
    .add('POST', '/v1/uploads/{id}/complete', (ctx, { id }) => uploads.complete(ctx, id))
    .add('POST', '/v1/uploads/{id}/cancel', (ctx, { id }) => uploads.cancel(ctx, id));
}
