import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { AdminGuard } from '../infra/http/admin.guard';
import { ApiDoc, listOf, OperatorApi, shape } from '../kernel/http/api-docs';
import { ApiError } from '../kernel/http/api-error';
import { Optional } from '../kernel/http/optional';
import { ProjectionsService } from '../runtime/processing/processors.service';

export class RebuildProjectionsDto {
  @ApiPropertyOptional({ example: 'tenants' })
  @Optional()
  @IsString()
  projection?: string;
}

/** Rebuilds read models from the whole history (decision 7), on the operator API. */
@OperatorApi('operator')
@UseGuards(AdminGuard)
@Controller('admin/v1/projections')
export class ProjectionsController {
  constructor(private readonly projections: ProjectionsService) {}

  @Post('rebuild')
  @ApiDoc({
    id: 'rebuildProjections',
    summary: 'Rebuild projections',
    description: 'Rebuilds one read model (or every rebuildable one) from the event store, while the service runs.',
    body: listOf(
      'ProjectionRebuilds',
      shape('ProjectionRebuild', {
        projection: { type: 'string' },
        events: { type: 'integer', minimum: 0, description: 'How many events were replayed.' },
      }),
    ),
    returns: 'What was rebuilt.',
    example: { data: [{ projection: 'sessions', events: 1204 }] },
    errors: [400],
  })
  @HttpCode(200)
  async rebuild(@Body() body: RebuildProjectionsDto) {
    if (body.projection !== undefined && !this.projections.names().includes(body.projection)) {
      throw ApiError.invalid(`Unknown projection; known: ${this.projections.names().join(', ')}.`, 'projection');
    }
    return { data: await this.projections.rebuild(body.projection) };
  }
}
